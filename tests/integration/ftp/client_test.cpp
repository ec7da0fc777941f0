// lab-ftp get/put/ls/client against pyftpdlib (with and without EPSV/EPRT) and against our serve,
// passive and active; --trace shows the dialogue; errors exit 1/2 with one line.
#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>

#include "serve_fixture.hpp"

using namespace ftp_it;

namespace {

struct pyftpd {
  std::unique_ptr<process> proc;
  std::string address;
  pyftpd(const std::string& root, bool no_extended) {
    std::vector<std::string> argv{"/usr/bin/python3", source_path("tests/integration/ftp/pyftpdlib_server.py"), root};
    if (no_extended) argv.push_back("--no-extended");
    proc = std::make_unique<process>(argv);
    address = proc->wait_listening();
  }
  [[nodiscard]] std::string url(const std::string& path) const { return "ftp://" + address + path; }
};

run_result lab(std::vector<std::string> args) {
  args.insert(args.begin(), bin_path("lab-ftp"));
  return run(args, {}, std::chrono::seconds(120));
}

void round_trip(const std::string& base_url, const served_dir& d, const std::vector<std::string>& mode,
                const std::string& expect_setup) {
  const std::string out = d.dir + "/got.bin";
  std::vector<std::string> get{"get", base_url + "/big.bin", "-o", out, "--trace"};
  get.insert(get.end(), mode.begin(), mode.end());
  auto r = lab(get);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(read_whole(out) == read_whole(d.root + "/big.bin")) << "download differs";
  EXPECT_NE(r.err.find("> " + expect_setup), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("> RETR big.bin"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("< 226"), std::string::npos) << r.err;
  std::vector<std::string> put{"put", out, base_url + "/pub/", "--json"};
  put.insert(put.end(), mode.begin(), mode.end());
  r = lab(put);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(read_whole(d.root + "/pub/got.bin") == read_whole(d.root + "/big.bin")) << "upload differs";
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["bytes"], read_whole(out).size());
  EXPECT_EQ(doc["data_command"], expect_setup);
  // Every duration key ends in _s (docs/conventions.md, "Output").
  EXPECT_TRUE(doc["duration_s"].is_number()) << doc.dump();
  EXPECT_FALSE(doc.contains("seconds")) << doc.dump();
  std::vector<std::string> ls{"ls", base_url + "/", "--names"};
  ls.insert(ls.end(), mode.begin(), mode.end());
  r = lab(ls);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("big.bin\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pub\n"), std::string::npos) << r.out;
  std::filesystem::remove(d.root + "/pub/got.bin");
}

}  // namespace

TEST(ClientPyftpdlib, PassiveAndActiveWithExtendedCommands) {
  NETLAB_REQUIRE_PYTHON_MODULE("pyftpdlib");
  served_dir d;
  pyftpd server(d.root, false);
  round_trip(server.url(""), d, {}, "EPSV");
  round_trip(server.url(""), d, {"--active"}, "EPRT");
}

TEST(ClientPyftpdlib, FallsBackToPasvAndPort) {
  NETLAB_REQUIRE_PYTHON_MODULE("pyftpdlib");
  served_dir d;
  pyftpd server(d.root, true);
  round_trip(server.url(""), d, {}, "PASV");
  round_trip(server.url(""), d, {"--active"}, "PORT");
}

TEST(ClientServe, PassiveAndActiveAgainstOurServer) {
  served_dir d;
  running_server s(d, {"--anonymous", "--write"});
  round_trip(s.url(""), d, {}, "EPSV");
  round_trip(s.url(""), d, {"--active"}, "EPRT");
}

TEST(ClientServe, AsciiModeConvertsLineEnds) {
  served_dir d;
  write_file(d.root + "/text.txt", "one\ntwo\n");
  running_server s(d, {"--anonymous", "--write"});
  auto r = lab({"get", s.url("/text.txt"), "-o", "-", "--ascii"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "one\ntwo\n");
  // The report on stderr gives a short transfer's time with a prefix (µs or ms), never "0.000 s".
  EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(^get [0-9]+ bytes in [0-9.]+ (ns|us|ms|s) \()"))) << r.err;
  EXPECT_EQ(r.err.find("0.000 s"), std::string::npos) << r.err;
  write_file(d.dir + "/up.txt", "a\nb\n");
  r = lab({"put", d.dir + "/up.txt", s.url("/pub/up.txt"), "--ascii", "--trace"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("> TYPE A"), std::string::npos);
  EXPECT_EQ(read_whole(d.root + "/pub/up.txt"), "a\nb\n");
}

TEST(ClientServe, InteractiveSession) {
  served_dir d;
  running_server s(d, {"--users", d.dir + "/users.txt", "--write"});  // a named user may delete
  const std::string script =
      "user alice wonderland\npwd\nmkdir newdir\ncd newdir\npwd\ncd ..\nbinary\npassive off\n"
      "get hello.txt " +
      d.dir + "/h.txt\nput " + d.dir +
      "/h.txt newdir/h2.txt\n"
      "passive on\nls newdir\ndelete newdir/h2.txt\nquit\n";
  const auto r = run({bin_path("lab-ftp"), "client", s.address}, script, std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("logged in as alice"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("/newdir\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("passive mode off"), std::string::npos);
  EXPECT_NE(r.out.find(" h2.txt\n"), std::string::npos) << r.out;
  EXPECT_EQ(read_whole(d.dir + "/h.txt"), "hello\n");
  EXPECT_FALSE(std::filesystem::exists(d.root + "/newdir/h2.txt"));
  EXPECT_TRUE(std::filesystem::is_directory(d.root + "/newdir"));
}

// The FTP handout's step 3 and 4: `put ~/users.txt` names a file in the home folder (lftp and
// tnftp expand ~), the following get works; `feat` and `quote CMD` show the server's reply.
TEST(ClientServe, TildeNamesTheHomeFolderAndQuoteAndFeatShowReplies) {
  served_dir d;
  running_server s(d, {"--anonymous", "--write"});
  const std::string home = d.dir + "/home";
  std::filesystem::create_directories(home);
  std::ofstream(home + "/notes.txt") << "one\ntwo\n";
  const std::string script =
      "user anonymous me@x\nput ~/notes.txt\nascii\nget notes.txt ~/copy.txt\nfeat\n"
      "quote SYST\nquote   MDTM   notes.txt\nquit\n";
  auto r =
      run({"/usr/bin/env", "HOME=" + home, bin_path("lab-ftp"), "client", s.address}, script, std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_whole(d.root + "/notes.txt"), "one\ntwo\n");
  EXPECT_EQ(read_whole(home + "/copy.txt"), "one\ntwo\n");
  EXPECT_NE(r.out.find("211-"), std::string::npos) << r.out;       // FEAT: a multi-line reply
  EXPECT_NE(r.out.find("\n SIZE\n"), std::string::npos) << r.out;  // one feature per line
  EXPECT_NE(r.out.find("211 End"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("215 UNIX Type: L8\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n213 "), std::string::npos) << r.out;  // MDTM, the extra spaces dropped
  EXPECT_EQ(r.out.find('\r'), std::string::npos);
  // A refused quoted command shows the reply and counts as a failed command.
  r = run({bin_path("lab-ftp"), "client", s.address}, "quote XYZ\nquote\nquit\n", std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("500 "), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("lab-ftp: error: XYZ: the server answered 500"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("usage: quote COMMAND"), std::string::npos) << r.err;
}

TEST(ClientServe, ErrorsExitOneOrTwoWithOneLine) {
  served_dir d;
  running_server s(d, {"--anonymous"});
  auto r = lab({"get", s.url("/missing.bin"), "-o", d.dir + "/m.bin"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("550"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(d.dir + "/m.bin"));
  EXPECT_FALSE(std::filesystem::exists(d.dir + "/m.bin.part"));
  r = lab({"get", "http://example.org/x"});
  EXPECT_EQ(r.exit_code, 2);
  // -o - puts the file on stdout, --json the report: together they are refused before connecting.
  r = lab({"get", s.url("/hello.txt"), "-o", "-", "--json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("lab-ftp: error: -o - and --json both write to stdout"), std::string::npos) << r.err;
  r = lab({"get", "ftp://alice:bad@" + s.address + "/big.bin", "-o", d.dir + "/x"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("530"), std::string::npos) << r.err;
  r = lab({"put", d.dir + "/users.txt", s.url("/x.txt")});  // read-only server
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("550"), std::string::npos) << r.err;
}
