// Whole-document check of a JGF `attach` before anything is applied.
//
// read_jgf() loads a document element by element, the way the reference
// does, and stops at the first bad element. Into a loaded graph (`attach`)
// that would leave the vertices, edges, roots, path index entries and
// interned names of the elements before it behind: a failed command that
// changes state. check_jgf_attach() runs the loader's own decisions
// (resource/jgf_load.h) against the graph plus an overlay of what the
// document would add, and returns the very error the load would stop at,
// or ok if the load succeeds. It never touches the graph; read_jgf()
// applies a document only after it passed.
#pragma once

#include "resource/graph.h"
#include "resource/jgf_reader.h"
#include "utilities/result.h"

namespace rq {

// The error (code and message) read_jgf() would return loading `doc` into
// `graph`, or ok if it would load.
Status check_jgf_attach(const JgfDocument& doc, const ResourceGraph& graph);

}  // namespace rq
