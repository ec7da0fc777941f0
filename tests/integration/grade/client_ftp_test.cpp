// netlab-grade ftp --client: curl, wget, Python ftplib and lab-ftp get/put (passive and active)
// against the reference lab-ftp serve get full score; the broken client that downloads in the
// default ASCII type fails exactly the type and integrity checks.
#include "grade_fixture.hpp"

namespace {

using namespace netlab::test;

const char* const ftplib_client =
    "/usr/bin/python3 -c 'import ftplib, sys; f = ftplib.FTP(); f.connect(sys.argv[1], int(sys.argv[2]), timeout=10); "
    "f.login(\"{user}\", \"{pass}\"); out = open(\"{out}\", \"wb\"); f.retrbinary(\"RETR {file}\", out.write); "
    "out.close(); f.quit()' {host} {port}";

TEST(ClientFtpGrade, RealClientsDownloadWithFullScore) {
  NETLAB_REQUIRE_PEER("curl");
  NETLAB_REQUIRE_PEER("wget");
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  for (const char* cmd : {"curl -s -o {out} {url}", "curl -s --ftp-port 127.0.0.1 -o {out} {url}", ftplib_client,
                          "lab-ftp get {url} -o {out}", "lab-ftp get {url} --active -o {out}"}) {
    const auto g = grade({"ftp", "--client", cmd});
    EXPECT_EQ(g.exit_code, 0) << cmd << "\n" << g.doc.dump(2);
    EXPECT_TRUE(g.failed().empty()) << cmd << "\n" << g.doc.dump(2);
    EXPECT_EQ(g.doc["checks"].size(), 8u);
    EXPECT_EQ(g.doc["score"], 13);
  }
  // wget closes the control connection after the transfer without sending QUIT.
  const auto g = grade({"ftp", "--client", "wget -q -O {out} {url}"});
  const std::map<std::string, std::string> expected{{"quit_221", "the last command is not QUIT"}};
  EXPECT_EQ(g.failed(), expected) << g.doc.dump(2);
}

// transfer_completed takes any spelling of the path that names the file in the session's folder.
TEST(ClientFtpGrade, AnyPathNamingTheFileCountsAsTheTransfer) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  for (const char* spelling : {"/{file}", "./{file}", ".//{file}"}) {
    std::string cmd = ftplib_client;
    cmd.replace(cmd.find("RETR {file}") + 5, 6, spelling);
    const auto g = grade({"ftp", "--client", cmd});
    EXPECT_EQ(g.exit_code, 0) << cmd << "\n" << g.doc.dump(2);
    EXPECT_TRUE(g.failed().empty()) << cmd << "\n" << g.doc.dump(2);
    EXPECT_EQ(g.doc["score"], 13) << cmd;
  }
}

TEST(ClientFtpGrade, UploadsAreStoredByteIdentical) {
  NETLAB_REQUIRE_PEER("curl");
  for (const char* cmd : {"curl -s -T {local} {url}", "lab-ftp put {local} {url}"}) {
    const auto g = grade({"ftp", "--upload", "--client", cmd});
    EXPECT_EQ(g.exit_code, 0) << cmd << "\n" << g.doc.dump(2);
    EXPECT_TRUE(g.failed().empty()) << cmd << "\n" << g.doc.dump(2);
  }
  // An upload in TYPE A is named (lab-ftp happens to store curl's bytes unchanged).
  const auto ascii = grade({"ftp", "--upload", "--client", "curl -s --use-ascii -T {local} {url}"});
  EXPECT_EQ(ascii.failed_names(), std::set<std::string>{"type_binary"}) << ascii.doc.dump(2);
  EXPECT_EQ(ascii.failed().at("type_binary"), "STOR was sent in ASCII mode (TYPE A is the default)");
}

TEST(ClientFtpGrade, BrokenAsciiClientFailsTypeAndIntegrity) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  const auto g = grade({"ftp", "--client",
                        "/usr/bin/python3 " + source_path("tests/integration/grade/client_broken.py") +
                            " ftp {host} {port} {user} {pass} {file} {out}"});
  EXPECT_EQ(g.exit_code, 1);
  EXPECT_EQ(g.failed_names(), (std::set<std::string>{"type_binary", "download_identical"})) << g.doc.dump(2);
  EXPECT_EQ(g.failed().at("type_binary"), "RETR was sent in ASCII mode (TYPE A is the default)");
  for (const auto& c : g.doc["checks"]) {
    if (c["name"] != "type_binary") continue;
    EXPECT_EQ(c["sent"], "USER alice\\r\\nPASS secret\\r\\nPASV\\r\\nRETR netlab.bin\\r\\nQUIT\\r\\n");
    EXPECT_EQ(c["expected"], "TYPE I answered 200 before RETR");
  }
}

TEST(ClientFtpGrade, GradescopeOutputForAClient) {
  NETLAB_REQUIRE_PEER("curl");
  grade_site site;
  const auto file = site.dir + "/results.json";
  const auto r = run({bin_path("netlab-grade"), "ftp", "--client", "curl -s -o {out} {url}", "--gradescope", file});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  std::ifstream in(file);
  const auto doc = nlohmann::json::parse(in);
  EXPECT_EQ(doc["score"], 13);
  EXPECT_EQ(gradescope_max_score(doc), 13);
  EXPECT_EQ(doc["tests"].size(), 8u);
  EXPECT_NE(r.out.find("netlab-grade ftp against client: curl -s -o "), std::string::npos) << r.out;
}

}  // namespace
