#include "utilities/dot_text.h"

#include <gtest/gtest.h>

namespace rq {
namespace {

TEST(DotText, EscapesQuotesBackslashesAndLineBreaks) {
    EXPECT_EQ(dot_escaped("core0"), "core0");
    EXPECT_EQ(dot_escaped("ti\"ny\\"), "ti\\\"ny\\\\");
    EXPECT_EQ(dot_escaped("a\nb"), "a\\nb");
    EXPECT_EQ(dot_escaped("\\N"), "\\\\N");  // not Graphviz's node-name escape
    EXPECT_EQ(dot_escaped(std::string("t\tx\x7f", 4)), "t x ");
}

}  // namespace
}  // namespace rq
