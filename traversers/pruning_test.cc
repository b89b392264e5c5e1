// TypeCounts and the pruning filters with counts beyond int64_t: sums
// saturate instead of overflowing (undefined behaviour, caught by UBSan in
// the sanitizer build), and matching on such a graph stays correct.
#include "traversers/pruning.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "traversers/test_fixture.h"

namespace rq {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t k2to62 = int64_t{1} << 62;

TEST(TypeCounts, AddSaturatesInsteadOfOverflowing) {
    TypeCounts counts;
    counts.add(3, k2to62);
    counts.add(3, k2to62);  // 2^63: one more than int64_t holds
    EXPECT_EQ(counts.get(3), kMax);
    counts.add(3, k2to62);
    EXPECT_EQ(counts.get(3), kMax);
    counts.add(3, -1);  // saturated stays meaningful: just below the top
    EXPECT_EQ(counts.get(3), kMax - 1);
    counts.add(1, 5);
    counts.add(1, 7);
    EXPECT_EQ(counts.get(1), 12);
    EXPECT_TRUE(counts.has(1));
    EXPECT_FALSE(counts.has(2));
}

TEST(Saturating, AddMulAndClamp) {
    EXPECT_EQ(saturating_add(kMax, 1), kMax);
    EXPECT_EQ(saturating_add(std::numeric_limits<int64_t>::min(), -1), std::numeric_limits<int64_t>::min());
    EXPECT_EQ(saturating_add(40, 2), 42);
    EXPECT_EQ(saturating_mul(4294967295, k2to62), kMax);
    EXPECT_EQ(saturating_mul(6, 7), 42);
    EXPECT_EQ(clamp_to_u32(-5), 0u);
    EXPECT_EQ(clamp_to_u32(17), 17u);
    EXPECT_EQ(clamp_to_u32(int64_t{1} << 32), 4294967295u);  // not 0, as a plain cast gives
    EXPECT_EQ(clamp_to_u32(kMax), 4294967295u);
}

// cluster -> node[2] -> memory[4] of 2^62 units each: the cluster holds
// 2^65 units of memory.
std::string huge_memory_recipe() {
    return R"(<graphml>
<key id="root" for="node" attr.name="root" attr.type="int"><default>0</default></key>
<key id="type" for="node" attr.name="type" attr.type="string"/>
<key id="basename" for="node" attr.name="basename" attr.type="string"/>
<key id="size" for="node" attr.name="size" attr.type="long"><default>1</default></key>
<key id="subsystem" for="node" attr.name="subsystem" attr.type="string"><default>containment</default></key>
<key id="e_subsystem" for="edge" attr.name="e_subsystem" attr.type="string"><default>containment</default></key>
<key id="gen_method" for="edge" attr.name="gen_method" attr.type="string"><default>MULTIPLY</default></key>
<key id="id_stride" for="edge" attr.name="id_stride" attr.type="int"><default>1</default></key>
<key id="multi_scale" for="edge" attr.name="multi_scale" attr.type="int"><default>1</default></key>
<key id="id_scope" for="edge" attr.name="id_scope" attr.type="int"><default>0</default></key>
<graph>
<node id="cluster"><data key="root">1</data><data key="type">cluster</data><data key="basename">c</data></node>
<node id="node"><data key="type">node</data><data key="basename">node</data></node>
<node id="memory"><data key="type">memory</data><data key="basename">memory</data><data key="size">4611686018427387904</data></node>
<edge source="cluster" target="node"><data key="multi_scale">2</data></edge>
<edge source="node" target="memory"><data key="multi_scale">4</data><data key="id_scope">1</data></edge>
</graph>
</graphml>
)";
}

TEST(Pruning, MemoryBeyondInt64MatchesOneUnitPerJob) {
    for (const char* prune : {"ALL:core,ALL:node", "ALL:core,ALL:node,ALL:memory"}) {
        SCOPED_TRACE(prune);
        testing::Matcher m(huge_memory_recipe(), "first", prune);
        std::string one_memory =
            testing::jobspec_yaml("  - type: slot\n    count: 1\n    label: s\n    with:\n"
                                  "      - type: memory\n        count: 1\n");
        // Each job takes one whole memory vertex (exclusive under a slot):
        // eight fit, the ninth does not.
        for (int job = 1; job <= 8; ++job) {
            std::string text = m.match(one_memory);
            EXPECT_NE(text.find("memory"), std::string::npos) << "job " << job;
            EXPECT_NE(text.find("[4611686018427387904:x]"), std::string::npos) << text;
        }
        MatchResult r;
        EXPECT_EQ(m.match(one_memory, MatchOp::kAllocate, &r), "");
        EXPECT_EQ(r.code, Errc::kBusy);
        ASSERT_TRUE(m.traverser->cancel(3).ok());
        EXPECT_NE(m.match(one_memory).find("memory"), std::string::npos);
    }
}

}  // namespace
}  // namespace rq
