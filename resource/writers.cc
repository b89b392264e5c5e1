// The writer factory: -F name -> MatchWriter (spec/output.md §1).
#include "resource/writer_jgf.h"
#include "resource/writer_rlite.h"
#include "resource/writer_rv1.h"
#include "resource/writer_simple.h"

namespace rq {

Result<std::unique_ptr<MatchWriter>> make_writer(const std::string& format) {
    std::unique_ptr<MatchWriter> writer;
    if (format == "simple")
        writer = std::make_unique<SimpleWriter>(false);
    else if (format == "pretty_simple")
        writer = std::make_unique<SimpleWriter>(true);
    else if (format == "jgf")
        writer = std::make_unique<JgfWriter>(false);
    else if (format == "jgf_shorthand")
        writer = std::make_unique<JgfWriter>(true);
    else if (format == "rlite")
        writer = std::make_unique<RliteWriter>();
    else if (format == "rv1")
        writer = std::make_unique<Rv1Writer>(Rv1Writer::Scheduling::kJgf);
    else if (format == "rv1_nosched")
        writer = std::make_unique<Rv1Writer>(Rv1Writer::Scheduling::kNone);
    else if (format == "rv1_shorthand")
        writer = std::make_unique<Rv1Writer>(Rv1Writer::Scheduling::kJgfShorthand);
    else
        return make_error(Errc::kInvalid, "unknown match format " + format);
    return writer;
}

}  // namespace rq
