#include "child/http_get.h"

#include <doctest/doctest.h>

TEST_CASE("an HTTP answer to an HTTP/1.0 request: its status and its body, read to the end or de-chunked") {
  const auto plain = gd::parse_http_response("HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nApi-Version: 1.41\r\n\r\n{\"a\":1}\n");
  REQUIRE(plain);
  CHECK(plain->status == 200);
  CHECK(plain->body == "{\"a\":1}\n");
  const auto chunked = gd::parse_http_response("HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\n4\r\n{\"a\"\r\n5;x=1\r\n:1}\r\n\r\n0\r\n\r\n");
  REQUIRE(chunked);
  CHECK(chunked->body == "{\"a\":1}\r\n");
  CHECK(gd::parse_http_response("HTTP/1.1 400 Bad Request\r\n\r\n{\"message\":\"x\"}")->status == 400);
  // Not HTTP, a head without its end, a status that is no number, a chunk that runs past the answer.
  CHECK_FALSE(gd::parse_http_response("SSH-2.0-OpenSSH_9.2\r\n"));
  CHECK_FALSE(gd::parse_http_response("HTTP/1.1 200 OK\r\nContent-Type: x\r\n"));
  CHECK_FALSE(gd::parse_http_response("HTTP/1.1 abc OK\r\n\r\n"));
  CHECK_FALSE(gd::parse_http_response("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffff\r\nshort"));
  CHECK_FALSE(gd::parse_http_response("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"));
}
