// StringPool: deduplicated, stable strings addressed by a 32-bit id.
//
// Resource graphs repeat the same few names millions of times ("core0",
// "socket1", "GB"); storing an id per vertex instead of a std::string keeps
// each vertex small. Strings live in fixed-size chunks, so the views handed
// out stay valid for the pool's lifetime.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rq {

// Append-only storage of characters in chunks with stable addresses.
class TextArena {
public:
    std::string_view store(std::string_view text);
    size_t bytes() const { return chunks_.size() * kChunk + big_bytes_; }

private:
    static constexpr size_t kChunk = 1 << 16;
    std::vector<std::unique_ptr<char[]>> chunks_;
    size_t used_ = kChunk;  // bytes used in the last chunk
    std::vector<std::unique_ptr<char[]>> big_;  // texts larger than a chunk
    size_t big_bytes_ = 0;
};

using NameId = uint32_t;

class StringPool {
public:
    StringPool() { intern(""); }  // id 0 is the empty string
    NameId intern(std::string_view text);
    std::string_view get(NameId id) const { return views_[id]; }
    size_t size() const { return views_.size(); }
    size_t bytes() const;

private:
    TextArena arena_;
    std::vector<std::string_view> views_;
    std::unordered_map<std::string_view, NameId> ids_;
};

}  // namespace rq
