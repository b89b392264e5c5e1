// HyperQueue's own parser tests, re-typed as data in
// t/data/pools/hq-definitions.tsv (each line cites its source): every
// `--resource` argument must get HyperQueue's verdict (docs/pools.md
// "Coming from HyperQueue").
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "pools/pool_def.h"

namespace rq::pools {
namespace {

struct HqCase {
    std::string argument, verdict, source;
};

std::vector<HqCase> read_cases() {
    std::ifstream in(std::string(RQ_SOURCE_DIR) + "/t/data/pools/hq-definitions.tsv");
    std::vector<HqCase> out;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        size_t a = line.find('\t'), b = line.find('\t', a + 1);
        if (a == std::string::npos || b == std::string::npos) continue;
        out.push_back({line.substr(0, a), line.substr(a + 1, b - a - 1), line.substr(b + 1)});
    }
    return out;
}

TEST(HyperQueueDefinitionCases, EveryCaseGetsHyperQueuesVerdict) {
    auto cases = read_cases();
    ASSERT_GE(cases.size(), 20u);
    for (const HqCase& c : cases) {
        auto pool = parse_resource_argument(c.argument);
        std::string where = "'" + c.argument + "' (" + c.source + ")";
        if (c.verdict.rfind("ok:", 0) == 0) {
            ASSERT_TRUE(pool) << where << ": " << pool.message();
            EXPECT_EQ(format_pool_definition(*pool), c.verdict.substr(3)) << where;
        } else {
            ASSERT_FALSE(pool) << where << " was accepted";
            if (c.verdict.rfind("error:", 0) == 0) {
                EXPECT_NE(pool.message().find(c.verdict.substr(6)), std::string::npos) << where << ": " << pool.message();
            }
        }
    }
}

}  // namespace
}  // namespace rq::pools
