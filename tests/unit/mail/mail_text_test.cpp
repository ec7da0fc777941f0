#include <gtest/gtest.h>

#include "netlib/mail/base64.hpp"
#include "netlib/mail/message_builder.hpp"
#include "netlib/mail/message_text.hpp"

namespace {

using namespace netlib::mail;

TEST(Base64, RoundTripsEveryLength) {
  const std::string data = std::string("\0\x01\xff\x80 hello world", 17);
  for (std::size_t n = 0; n <= data.size(); ++n) {
    const std::string part = data.substr(0, n);
    const auto back = base64_decode(base64_encode(part));
    ASSERT_TRUE(back.has_value()) << n;
    EXPECT_EQ(*back, part);
  }
}

TEST(Base64, KnownVectorsRfc4648) {
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64_encode(std::string("\0alice\0secret", 13)), "AGFsaWNlAHNlY3JldA==");
}

TEST(Base64, RejectsBadInput) {
  EXPECT_FALSE(base64_decode("Zg=").has_value());
  EXPECT_FALSE(base64_decode("Z===").has_value());
  EXPECT_FALSE(base64_decode("Zg=a").has_value());
  EXPECT_FALSE(base64_decode("Zm9v!mFy").has_value());
  EXPECT_EQ(base64_decode("").value(), "");
}

TEST(MessageText, ToCrlfNormalizesEveryLineEnd) {
  EXPECT_EQ(to_crlf("a\nb\r\nc\rd"), "a\r\nb\r\nc\r\nd\r\n");
  EXPECT_EQ(to_crlf(""), "");
  EXPECT_EQ(to_crlf("x\r\n"), "x\r\n");
  for (std::string_view s : {"a\nb\r\nc\rd", "", "x", "\r\r\n\n", "line\n"})
    EXPECT_EQ(crlf_size(s), to_crlf(s).size()) << s;
}

TEST(MessageText, ToLfDropsOnlyTheCrOfCrlfAndRoundTripsThroughToCrlf) {
  EXPECT_EQ(to_lf("a\r\nb\r\n\r\n"), "a\nb\n\n");
  EXPECT_EQ(to_lf("bare\rcr\nlf\r"), "bare\rcr\nlf\r");  // only CR directly before LF goes
  EXPECT_EQ(to_lf("\r\r\n"), "\r\n");
  EXPECT_EQ(to_lf(""), "");
  for (std::string_view crlf : {"Subject: x\r\n\r\n.dot\r\nbody\r\n", "\r\n", "a\r\n\r\n\r\n"}) {
    EXPECT_EQ(to_crlf(to_lf(crlf)), crlf);
    EXPECT_EQ(crlf_size(to_lf(crlf)), crlf.size());  // the size POP3 lists for the stored file
  }
}

TEST(MessageText, FinalDeliveryCopyStartsWithReturnPathAndDeliveredTo) {
  EXPECT_EQ(final_delivery_copy("alice@example.org", "bob@example.org", "Subject: x\r\n\r\nhi\r\n"),
            "Return-Path: <alice@example.org>\r\nDelivered-To: bob@example.org\r\nSubject: x\r\n\r\nhi\r\n");
  EXPECT_EQ(final_delivery_copy("", "bob@example.org", "x\r\n"),
            "Return-Path: <>\r\nDelivered-To: bob@example.org\r\nx\r\n");
}

TEST(MessageText, DotStuffingDoublesLeadingDots) {
  EXPECT_EQ(dot_stuff(".a\r\nb.\r\n..c\r\n.\r\n"), "..a\r\nb.\r\n...c\r\n..\r\n");
}

TEST(MessageText, Rfc5322Date) {
  // 2026-11-30 08:55:04 UTC was a Monday.
  const std::chrono::sys_seconds t{std::chrono::seconds(1796028904)};
  EXPECT_EQ(rfc5322_date(t), "Mon, 30 Nov 2026 08:55:04 +0000");
  EXPECT_EQ(rfc5322_date(std::chrono::sys_seconds{}), "Thu, 01 Jan 1970 00:00:00 +0000");
}

TEST(MessageBuilder, PlainMessageHasHeadersAndCrlfBody) {
  message_fields f{"a@x.org", {"b@y.org", "c@y.org"}, "Hi", std::chrono::sys_seconds{}, "1.2@x.org", "B"};
  const std::string m = build_message(f, "line one\nline two\n", {});
  EXPECT_EQ(m,
            "From: a@x.org\r\nTo: b@y.org, c@y.org\r\nSubject: Hi\r\nDate: Thu, 01 Jan 1970 00:00:00 +0000\r\n"
            "Message-ID: <1.2@x.org>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=us-ascii\r\n"
            "Content-Transfer-Encoding: 7bit\r\n\r\nline one\r\nline two\r\n");
}

TEST(MessageBuilder, AttachmentIsBase64MultipartMixed) {
  message_fields f{"a@x.org", {"b@y.org"}, "", std::chrono::sys_seconds{}, "id@x", "=_netlab_b"};
  const std::string blob(100, '\xAB');
  const std::string m = build_message(f, "see attached", {{"data.bin", "application/octet-stream", blob}});
  EXPECT_NE(m.find("Content-Type: multipart/mixed; boundary=\"=_netlab_b\"\r\n"), std::string::npos);
  EXPECT_NE(m.find("--=_netlab_b\r\nContent-Type: text/plain"), std::string::npos);
  EXPECT_NE(m.find("Content-Disposition: attachment; filename=\"data.bin\"\r\n"), std::string::npos);
  const std::string b64 = base64_encode(blob);
  EXPECT_NE(m.find(b64.substr(0, 76) + "\r\n" + b64.substr(76) + "\r\n--=_netlab_b--\r\n"), std::string::npos);
  EXPECT_EQ(m.find("Subject:"), std::string::npos);
}

}  // namespace
