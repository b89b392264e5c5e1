#include "utilities/idset.h"

#include <gtest/gtest.h>

namespace rq {
namespace {

using Ids = std::vector<int64_t>;

Ids decode_ok(const std::string& text) {
    auto result = decode_idset(text);
    EXPECT_TRUE(result.ok()) << text << ": " << (result.ok() ? "" : result.message());
    return result.ok() ? *result : Ids{-1};
}

TEST(IdsetEncode, SpecExamples) {
    Ids zero_to_35;
    for (int64_t i = 0; i <= 35; ++i) zero_to_35.push_back(i);
    EXPECT_EQ(encode_idset(zero_to_35), "0-35");
    EXPECT_EQ(encode_idset({3, 4, 7}), "3-4,7");
    EXPECT_EQ(encode_idset({0}), "0");
    Ids eighteen_and_more{18};
    for (int64_t i = 20; i <= 35; ++i) eighteen_and_more.push_back(i);
    EXPECT_EQ(encode_idset(eighteen_and_more), "18,20-35");
}

TEST(IdsetEncode, SortsAndDeduplicates) {
    EXPECT_EQ(encode_idset({7, 3, 4, 3, 7}), "3-4,7");
    EXPECT_EQ(encode_idset({5, 1, 3}), "1,3,5");
    EXPECT_EQ(encode_idset({}), "");
}

TEST(IdsetEncode, NegativeIdsAreSkipped) {
    EXPECT_EQ(encode_idset({-1, 0, 1}), "0-1");
}

TEST(IdsetDecode, Forms) {
    EXPECT_EQ(decode_ok("1-3"), (Ids{1, 2, 3}));
    EXPECT_EQ(decode_ok("[0-2,5]"), (Ids{0, 1, 2, 5}));
    EXPECT_EQ(decode_ok("0,2"), (Ids{0, 2}));
    EXPECT_EQ(decode_ok("7"), (Ids{7}));
    EXPECT_EQ(decode_ok("3-3"), (Ids{3}));
    EXPECT_EQ(decode_ok(""), Ids{});
    EXPECT_EQ(decode_ok("[]"), Ids{});
}

TEST(IdsetDecode, UnsortedAndOverlappingInputIsNormalized) {
    EXPECT_EQ(decode_ok("5,1-3,2-4,1"), (Ids{1, 2, 3, 4, 5}));
    auto ranges = decode_idset_ranges("8,1-3,4,10-12,11");
    ASSERT_TRUE(ranges.ok());
    EXPECT_EQ(*ranges, (std::vector<IdRange>{{1, 4}, {8, 8}, {10, 12}}));
}

TEST(IdsetDecode, EmptyElementsAreSkipped) {
    EXPECT_EQ(decode_ok("1,,3,"), (Ids{1, 3}));
}

TEST(IdsetDecode, Errors) {
    for (const char* bad : {"x", "1-", "-1", "3-1", "1-2-3", "[1", "1]", "[", " 1", "1 ", "+1",
                            "0x10", "1.5", "4294967295", "99999999999999999999", "[[1]]"}) {
        SCOPED_TRACE(bad);
        auto result = decode_idset(bad);
        ASSERT_FALSE(result.ok());
        EXPECT_EQ(result.code(), Errc::kInvalid);
        EXPECT_EQ(result.message(), std::string("Invalid idset `") + bad + "'");
    }
}

TEST(IdsetDecode, LargestIdAndTooLargeToExpand) {
    EXPECT_EQ(decode_ok("4294967294"), (Ids{4294967294}));
    auto huge = decode_idset("0-4294967294");
    ASSERT_FALSE(huge.ok());
    EXPECT_EQ(huge.code(), Errc::kRange);
    // ranges are fine at any size
    auto ranges = decode_idset_ranges("0-4294967294");
    ASSERT_TRUE(ranges.ok());
    EXPECT_TRUE(idset_ranges_contain(*ranges, 4294967294));
}

TEST(IdsetDecode, RoundTrip) {
    for (const char* text : {"0-35", "3-4,7", "0", "18,20-35", "1,3,5-9,100-101", ""}) {
        SCOPED_TRACE(text);
        EXPECT_EQ(encode_idset(decode_ok(text)), text);
    }
    EXPECT_EQ(encode_idset(decode_ok("[9,8,7,1]")), "1,7-9");
}

TEST(IdsetRanges, Contains) {
    auto ranges = decode_idset_ranges("1-3,7,10-12");
    ASSERT_TRUE(ranges.ok());
    for (int64_t id : {1, 2, 3, 7, 10, 11, 12}) EXPECT_TRUE(idset_ranges_contain(*ranges, id)) << id;
    for (int64_t id : {-1, 0, 4, 6, 8, 9, 13}) EXPECT_FALSE(idset_ranges_contain(*ranges, id)) << id;
    EXPECT_FALSE(idset_ranges_contain({}, 0));
}

}  // namespace
}  // namespace rq
