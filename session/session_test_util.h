// Sessions for the unit tests of session/: one loaded from conf/tiny.graphml
// (racks of nodes of sockets of cores, gpus and memory).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "session/build.h"
#include "utilities/file.h"

namespace rq::testing {

// A file of the source tree, as text.
inline std::string source_text(const std::string& relative) {
    std::string text;
    EXPECT_TRUE(read_file(std::string(RQ_SOURCE_DIR) + "/" + relative, text)) << relative;
    return text;
}

// Loads conf/tiny.graphml into `s` with `options` and finishes the session.
inline void load_tiny_session(Session& s, const Options& options = Options()) {
    ASSERT_TRUE(load_session_graph(s, options, source_text("conf/tiny.graphml"), {}, nullptr).ok());
    ASSERT_TRUE(finish_session(s).ok());
}

}  // namespace rq::testing
