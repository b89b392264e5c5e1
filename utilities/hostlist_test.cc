#include "utilities/hostlist.h"

#include <gtest/gtest.h>

namespace rq {
namespace {

using Hosts = std::vector<std::string>;

Hosts numbered(const std::string& prefix, int lo, int hi) {
    Hosts hosts;
    for (int i = lo; i <= hi; ++i) hosts.push_back(prefix + std::to_string(i));
    return hosts;
}

Hosts decode_ok(const std::string& text) {
    auto result = decode_hostlist(text);
    EXPECT_TRUE(result.ok()) << text << ": " << (result.ok() ? "" : result.message());
    return result.ok() ? *result : Hosts{"<error>"};
}

// ---- encoding ---------------------------------------------------------------------

TEST(HostlistEncode, SpecExamples) {
    EXPECT_EQ(encode_hostlist(numbered("node", 0, 3)), "node[0-3]");
    EXPECT_EQ(encode_hostlist({"foo2", "foo4"}), "foo[2,4]");
    EXPECT_EQ(encode_hostlist(numbered("compute", 1, 10)), "compute[1-10]");
    EXPECT_EQ(encode_hostlist({"foo4"}), "foo4");
    Hosts fluke = numbered("fluke", 1, 10);
    fluke.push_back("fluke4432");
    fluke.push_back("fluke4832");
    EXPECT_EQ(encode_hostlist(fluke), "fluke[1-10,4432,4832]");
    EXPECT_EQ(encode_hostlist({"cab1234"}), "cab1234");
}

TEST(HostlistEncode, OrderIsPreserved) {
    EXPECT_EQ(encode_hostlist({"node3", "node1", "node2"}), "node[3,1-2]");
    EXPECT_EQ(encode_hostlist({"b1", "a1", "b2"}), "b1,a1,b2");
    EXPECT_EQ(encode_hostlist({"a1", "a2", "b5", "a3"}), "a[1-2],b5,a3");
}

TEST(HostlistEncode, ZeroPadding) {
    EXPECT_EQ(encode_hostlist({"node08", "node09", "node10"}), "node[08-10]");
    EXPECT_EQ(encode_hostlist({"node8", "node9", "node10"}), "node[8-10]");
    EXPECT_EQ(encode_hostlist({"node8", "node09"}), "node[8,09]");  // padding differs
    EXPECT_EQ(encode_hostlist({"node08", "node9"}), "node[08,9]");
    EXPECT_EQ(encode_hostlist({"n001", "n002", "n004"}), "n[001-002,004]");
    EXPECT_EQ(encode_hostlist({"n0", "n1"}), "n[0-1]");
}

TEST(HostlistEncode, NamesWithoutNumbers) {
    EXPECT_EQ(encode_hostlist({"login"}), "login");
    EXPECT_EQ(encode_hostlist({"login", "login"}), "login,login");
    EXPECT_EQ(encode_hostlist({"login", "login1", "login2"}), "login,login[1-2]");
    EXPECT_EQ(encode_hostlist({"a", "b1", "c"}), "a,b1,c");
}

TEST(HostlistEncode, DuplicatesAndEdgeCases) {
    EXPECT_EQ(encode_hostlist({"n1", "n1"}), "n[1,1]");
    EXPECT_EQ(encode_hostlist({}), "");
    EXPECT_EQ(encode_hostlist({"7", "8"}), "[7-8]");  // empty prefix
    EXPECT_EQ(encode_hostlist({"rack1-node3", "rack1-node4"}), "rack1-node[3-4]");
    // far too many digits to be a number: kept whole
    EXPECT_EQ(encode_hostlist({"x1234567890123456789012"}), "x1234567890123456789012");
}

// ---- decoding ---------------------------------------------------------------------

TEST(HostlistDecode, Forms) {
    EXPECT_EQ(decode_ok("node[0-3,5]"), (Hosts{"node0", "node1", "node2", "node3", "node5"}));
    EXPECT_EQ(decode_ok("foo4"), (Hosts{"foo4"}));
    EXPECT_EQ(decode_ok("a,b,c"), (Hosts{"a", "b", "c"}));
    EXPECT_EQ(decode_ok("prefix[01-03]"), (Hosts{"prefix01", "prefix02", "prefix03"}));
    EXPECT_EQ(decode_ok("n[8-10]"), (Hosts{"n8", "n9", "n10"}));
    EXPECT_EQ(decode_ok("n[1-2]-ib"), (Hosts{"n1-ib", "n2-ib"}));
    EXPECT_EQ(decode_ok("a[1-2],b[3],c"), (Hosts{"a1", "a2", "b3", "c"}));
    EXPECT_EQ(decode_ok("n2 n1"), (Hosts{"n2", "n1"}));
    EXPECT_EQ(decode_ok(""), Hosts{});
    EXPECT_EQ(decode_ok("a,,b,"), (Hosts{"a", "b"}));
}

TEST(HostlistDecode, Errors) {
    for (const char* bad : {"node[", "node[0-", "node[]", "node[3-1]", "node[a]", "node]",
                            "node[1]]", "node[[1]]", "n[1][2]", "n[1-2-3]", "n[1,]", "n[-1]",
                            "n[1234567890123456789]"}) {
        SCOPED_TRACE(bad);
        auto result = decode_hostlist(bad);
        ASSERT_FALSE(result.ok());
        EXPECT_EQ(result.code(), Errc::kInvalid);
        EXPECT_EQ(result.message(), std::string("Invalid hostlist `") + bad + "'");
    }
}

TEST(HostlistDecode, TooLargeToExpandButFineForMembership) {
    auto huge = decode_hostlist("n[0-999999999]");
    ASSERT_FALSE(huge.ok());
    EXPECT_EQ(huge.code(), Errc::kRange);
    auto list = Hostlist::parse("n[0-999999999]");
    ASSERT_TRUE(list.ok());
    EXPECT_EQ(list->size(), 1000000000);
    EXPECT_TRUE(list->contains("n123456789"));
}

TEST(HostlistDecode, RoundTrip) {
    for (const char* text : {"node[0-3]", "foo[2,4]", "fluke[1-10,4432,4832]", "foo4",
                             "node[08-10]", "a,b[1-2],c", "n[3,1-2]"}) {
        SCOPED_TRACE(text);
        EXPECT_EQ(encode_hostlist(decode_ok(text)), text);
    }
}

TEST(HostlistContains, Membership) {
    auto list = Hostlist::parse("node[0-3,5],foo[08-10],login,n[1-2]-ib");
    ASSERT_TRUE(list.ok());
    for (const char* host : {"node0", "node3", "node5", "foo08", "foo10", "login", "n2-ib"})
        EXPECT_TRUE(list->contains(host)) << host;
    for (const char* host : {"node4", "node6", "node", "node00", "foo8", "foo11", "login1",
                             "n2", "n3-ib", "", "node0x", "nodeX"})
        EXPECT_FALSE(list->contains(host)) << host;
}

}  // namespace
}  // namespace rq
