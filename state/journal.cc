#include "state/journal.h"

namespace rq::state {

int64_t Journal::intern(const std::string& text) {
    auto [it, inserted] = index_.emplace(text, static_cast<int64_t>(blobs_.size()));
    if (inserted) blobs_.push_back(&it->first);
    return it->second;
}

}  // namespace rq::state
