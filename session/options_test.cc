#include "session/options.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rq {
namespace {

TEST(Subsystems, EverySelectorAndItsLowerCase) {
    EXPECT_EQ(*resolve_subsystems("CA"), std::vector<std::string>{"containment"});
    EXPECT_EQ(*resolve_subsystems("c+p+iba"), (std::vector<std::string>{"containment", "power", "ibnet"}));
    EXPECT_EQ(*resolve_subsystems("V+PFS1BA"), (std::vector<std::string>{"virtual1", "pfs1bw"}));
    EXPECT_EQ(resolve_subsystems("ALL")->size(), 5u);
    EXPECT_EQ(*resolve_subsystems("C+IBBA"), (std::vector<std::string>{"containment", "ibnetbw"}));
    EXPECT_FALSE(resolve_subsystems("Ca").ok());
    EXPECT_FALSE(resolve_subsystems("XYZ").ok());
}

}  // namespace
}  // namespace rq
