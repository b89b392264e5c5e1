#include "utilities/string_pool.h"

#include <cstring>

namespace rq {

std::string_view TextArena::store(std::string_view text) {
    if (text.empty()) return {};
    if (text.size() > kChunk / 4) {
        big_.emplace_back(new char[text.size()]);
        std::memcpy(big_.back().get(), text.data(), text.size());
        big_bytes_ += text.size();
        return {big_.back().get(), text.size()};
    }
    if (used_ + text.size() > kChunk) {
        chunks_.emplace_back(new char[kChunk]);
        used_ = 0;
    }
    char* dst = chunks_.back().get() + used_;
    std::memcpy(dst, text.data(), text.size());
    used_ += text.size();
    return {dst, text.size()};
}

NameId StringPool::intern(std::string_view text) {
    auto it = ids_.find(text);
    if (it != ids_.end()) return it->second;
    std::string_view stored = arena_.store(text);
    auto id = static_cast<NameId>(views_.size());
    views_.push_back(stored);
    ids_.emplace(stored, id);
    return id;
}

size_t StringPool::bytes() const {
    return arena_.bytes() + views_.capacity() * sizeof(std::string_view) +
           ids_.size() * (sizeof(std::string_view) + sizeof(NameId) + 2 * sizeof(void*)) +
           ids_.bucket_count() * sizeof(void*);
}

}  // namespace rq
