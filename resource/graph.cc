#include "resource/graph.h"

#include <algorithm>

namespace rq {

ResourceGraph::ResourceGraph()
    : types_(make_type_interner()), subsystems_(make_subsystem_interner()) {}

void ResourceGraph::reserve(size_t n, size_t m) {
    for (auto* col : {&kind_, &name_}) col->reserve(n);
    for (auto* col : {&id_, &rank_, &size_}) col->reserve(n);
    type_.reserve(n);
    flags_.reserve(n);
    first_path_.reserve(n);
    paths_.reserve(n);
    by_path_.reserve(n, path_texts());
    for (auto* col : {&out_head_, &out_tail_, &in_head_, &in_tail_}) col->reserve(n);
    edge_src_.reserve(m);
    out_pos_.reserve(m);
    edge_dst_.reserve(m);
    edge_sub_.reserve(m);
    marks_.reserve(m);
    out_next_.reserve(m);
    in_next_.reserve(m);
}

void ResourceGraph::reserve_type(TypeId t, size_t n) {
    if (by_type_.size() <= t) by_type_.resize(t + 1u);
    by_type_[t].reserve(n);
}

void ResourceGraph::reserve_rank(int64_t rank, size_t n) {
    if (n == 0) return;  // an empty list would show in the rank counts
    by_rank_[rank].reserve(n);
    last_rank_.list = nullptr;
}

uint32_t ResourceGraph::kind_of(std::string_view basename, std::string_view unit) {
    // Loaders create runs of one kind: try the last one before hashing.
    if (!kinds_.empty()) {
        const Kind& last = kinds_[kind_.empty() ? 0 : kind_.back()];
        if (strings_.get(last.basename) == basename && strings_.get(last.unit) == unit)
            return kind_.empty() ? 0 : kind_.back();
    }
    Kind k{strings_.intern(basename), strings_.intern(unit)};
    auto [it, added] = kind_ids_.try_emplace(uint64_t(k.basename) << 32 | k.unit, static_cast<uint32_t>(kinds_.size()));
    if (added) kinds_.push_back(k);
    return it->second;
}

VertexId ResourceGraph::add_vertex(const VertexSpec& spec) {
    auto v = static_cast<VertexId>(type_.size());
    type_.push_back(spec.type);
    flags_.push_back(spec.up ? 0 : kDown);
    kind_.push_back(kind_of(spec.basename, spec.unit));
    name_.push_back(strings_.intern(spec.name));
    id_.push_back(spec.id);
    int64_t uniq = spec.uniq_id < 0 ? static_cast<int64_t>(v) : spec.uniq_id;
    if (!uniq_id_.empty()) {
        uniq_id_.push_back(uniq);
    } else if (uniq != static_cast<int64_t>(v)) {
        uniq_id_.reserve(type_.capacity());
        for (VertexId u = 0; u < v; ++u) uniq_id_.push_back(u);
        uniq_id_.push_back(uniq);
    }
    rank_.push_back(spec.rank);
    size_.push_back(spec.size);
    first_path_.push_back(kNoPath);
    for (auto* col : {&out_head_, &out_tail_, &in_head_, &in_tail_}) col->push_back(kNoEdge);

    if (by_type_.size() <= spec.type) by_type_.resize(spec.type + 1u);
    by_type_[spec.type].push_back(v);
    if (last_rank_.list == nullptr || last_rank_.rank != spec.rank) {
        last_rank_.list = &by_rank_[spec.rank];
        last_rank_.rank = spec.rank;
    }
    last_rank_.list->push_back(v);
    if (name_count_.size() <= name_.back()) name_count_.resize(name_.back() + 1u, 0);
    if (name_count_[name_.back()]++ == 0) ++distinct_names_;
    if (log_) log_->vertices.push_back(v);
    return v;
}

EdgeId ResourceGraph::add_edge(VertexId src, VertexId dst, SubsystemId s) {
    auto e = static_cast<EdgeId>(edge_src_.size());
    edge_src_.push_back(src);
    edge_dst_.push_back(dst);
    edge_sub_.push_back(s);
    marks_.emplace_back();
    out_next_.push_back(kNoEdge);
    in_next_.push_back(kNoEdge);
    // One past the last live out-edge's position: still increasing along
    // the list (a dead tail's number may be reused; it is in no list).
    out_pos_.push_back(out_tail_[src] == kNoEdge ? 0 : out_pos_[out_tail_[src]] + 1);
    append(out_head_[src], out_tail_[src], out_next_, e);
    append(in_head_[dst], in_tail_[dst], in_next_, e);
    ++live_edges_;
    touch_order(src);
    if (ChildOrder* order = child_order_of(src)) order->insert(OrderedChild{UINT64_MAX, uniq_id(dst), e});
    if (log_) log_->edges.push_back(e);
    return e;
}

EdgeId ResourceGraph::add_or_reuse_edge(VertexId src, VertexId dst, SubsystemId s) {
    // Walk src's out-list and dst's in-list in lockstep and stop at the
    // first hit or at the end of either list: O(min(out-degree of src,
    // in-degree of dst)), so a fan-out of any width loads in linear time
    // (each new child has no in-edge yet). Both lists are in creation
    // order, so the first src->dst edge either walk meets is the same.
    EdgeId o = out_head_[src], i = in_head_[dst];
    while (o != kNoEdge && i != kNoEdge) {
        EdgeId found = edge_dst_[o] == dst ? o : edge_src_[i] == src ? i : kNoEdge;
        if (found != kNoEdge) {
            edge_sub_[found] = s;
            if (log_) log_->edges.push_back(found);
            return found;
        }
        o = out_next_[o];
        i = in_next_[i];
        ++list_steps_;
    }
    return add_edge(src, dst, s);
}

void ResourceGraph::remove_edge(EdgeId e) {
    if (!edge_alive(e)) return;
    VertexId src = edge_src_[e], dst = edge_dst_[e];
    touch_order(src);
    unlink(out_head_[src], out_tail_[src], out_next_, e);
    unlink(in_head_[dst], in_tail_[dst], in_next_, e);
    if (ChildOrder* order = child_order_of(src)) order->erase(OrderedChild{weight(e), uniq_id(dst), e});
    edge_sub_[e] = kNoId;
    --live_edges_;
    if (log_) log_->edges.push_back(e);
}

void ResourceGraph::append(EdgeId& head, EdgeId& tail, std::vector<EdgeId>& next, EdgeId e) {
    if (tail == kNoEdge)
        head = e;
    else
        next[tail] = e;
    tail = e;
}

void ResourceGraph::unlink(EdgeId& head, EdgeId& tail, std::vector<EdgeId>& next, EdgeId e) {
    EdgeId prev = kNoEdge;
    for (EdgeId i = head; i != kNoEdge; prev = i, i = next[i]) {
        if (i != e) continue;
        if (prev == kNoEdge)
            head = next[i];
        else
            next[prev] = next[i];
        if (tail == e) tail = prev;
        next[e] = kNoEdge;
        return;
    }
}

size_t ResourceGraph::out_degree(VertexId v) const {
    size_t n = 0;
    for (EdgeId e = out_head_[v]; e != kNoEdge; e = out_next_[e]) ++n;
    return n;
}

void ResourceGraph::set_up(VertexId v, bool up) {
    if (up)
        flags_[v] &= static_cast<uint8_t>(~kDown);
    else
        flags_[v] |= kDown;
}

const PropertyMap* ResourceGraph::properties(VertexId v) const {
    auto it = properties_.find(v);
    return it == properties_.end() || it->second.empty() ? nullptr : &it->second;
}

void ResourceGraph::set_property(VertexId v, const std::string& key, const std::string& value) {
    properties_[v][key] = value;
}

uint32_t ResourceGraph::find_entry(VertexId v, SubsystemId s) const {
    for (uint32_t p = first_path_[v]; p != kNoPath; p = paths_[p].next)
        if (paths_[p].subsystem == s) return p;
    return kNoPath;
}

std::string ResourceGraph::path(VertexId v, SubsystemId s) const {
    std::string out;
    uint32_t p = find_entry(v, s);
    if (p != kNoPath) append_path(p, out);
    return out;
}

bool ResourceGraph::has_path(VertexId v, SubsystemId s) const { return find_entry(v, s) != kNoPath; }

void ResourceGraph::append_path(uint32_t p, std::string& out) const {
    // Iterative (a JGF chain may be deep): collect the entries up to the
    // first explicit or prefix-less one, then append from the top.
    uint32_t chain[64];
    size_t n = 0;
    std::vector<uint32_t> deep;
    for (uint32_t q = p; q != kNoPath; q = paths_[q].derived ? paths_[q].prefix : kNoPath) {
        if (n < 64)
            chain[n++] = q;
        else
            deep.push_back(q);
    }
    auto emit = [&](uint32_t q) {
        const PathEntry& e = paths_[q];
        if (!e.derived) {
            out += path_texts_[e.leaf];
        } else {
            out += '/';
            out += strings_.get(e.leaf);
        }
    };
    for (size_t i = deep.size(); i-- > 0;) emit(deep[i]);
    for (size_t i = n; i-- > 0;) emit(chain[i]);
}

bool ResourceGraph::path_equals(uint32_t p, std::string_view text) const {
    while (p != kNoPath) {
        const PathEntry& e = paths_[p];
        if (!e.derived) return path_texts_[e.leaf] == text;
        std::string_view leaf = strings_.get(e.leaf);
        if (text.size() < leaf.size() + 1) return false;
        size_t cut = text.size() - leaf.size() - 1;
        if (text[cut] != '/' || text.substr(cut + 1) != leaf) return false;
        text = text.substr(0, cut);
        p = e.prefix;
    }
    return text.empty();
}

uint32_t ResourceGraph::add_entry(uint32_t prefix, uint32_t leaf, SubsystemId s, bool derived) {
    auto p = static_cast<uint32_t>(paths_.size());
    paths_.push_back({prefix, leaf, kNoPath, s, derived});
    return p;
}

void ResourceGraph::link_entry(VertexId v, uint32_t p) {
    // Keep the list sorted by subsystem; a replaced entry is unlinked but
    // kept (other entries may be built on its text).
    SubsystemId s = paths_[p].subsystem;
    uint32_t prev = kNoPath, cur = first_path_[v];
    while (cur != kNoPath && paths_[cur].subsystem < s) prev = cur, cur = paths_[cur].next;
    if (cur != kNoPath && paths_[cur].subsystem == s) cur = paths_[cur].next;
    paths_[p].next = cur;
    if (prev == kNoPath)
        first_path_[v] = p;
    else
        paths_[prev].next = p;
}

void ResourceGraph::set_path(VertexId v, SubsystemId s, std::string_view text) {
    // The compact form when the text is an indexed path + "/" + a name.
    size_t slash = text.rfind('/');
    if (slash != std::string_view::npos) {
        std::string_view prefix_text = text.substr(0, slash), leaf = text.substr(slash + 1);
        uint32_t prefix = kNoPath;
        bool found = prefix_text.empty();
        if (!found) {
            by_path().for_each(prefix_text, [&](VertexId u) {
                for (uint32_t q = first_path_[u]; q != kNoPath && !found; q = paths_[q].next)
                    if (path_equals(q, prefix_text)) prefix = q, found = true;
            });
        }
        if (found) {
            if (log_) log_->vertices.push_back(v);
            NameId leaf_id = leaf == name(v) ? name_[v] : strings_.intern(leaf);
            link_entry(v, add_entry(prefix, leaf_id, s, true));
            return;
        }
    }
    if (log_) log_->vertices.push_back(v);
    auto t = static_cast<uint32_t>(path_texts_.size());
    path_texts_.push_back(path_text_.store(text));
    link_entry(v, add_entry(kNoPath, t, s, false));
}

void ResourceGraph::set_path_below(VertexId v, SubsystemId s, VertexId parent, SubsystemId parent_s) {
    if (log_) log_->vertices.push_back(v);
    uint32_t prefix = parent == kNoVertex ? kNoPath : find_entry(parent, parent_s);
    link_entry(v, add_entry(prefix, name_[v], s, true));
}

void ResourceGraph::index_path(VertexId v, std::string_view text) {
    // Keys refer to a path entry: the vertex's own when it has this text,
    // else a new unlinked one.
    uint32_t ref = kNoPath;
    for (uint32_t p = first_path_[v]; p != kNoPath && ref == kNoPath; p = paths_[p].next)
        if (path_equals(p, text)) ref = p;
    if (ref == kNoPath) {
        auto t = static_cast<uint32_t>(path_texts_.size());
        path_texts_.push_back(path_text_.store(text));
        ref = add_entry(kNoPath, t, kNoId, false);
    }
    if (log_) log_->keys.emplace_back(text);
    by_path_.add_deferred(text, ref, v);
}

EdgeMarks& ResourceGraph::root_marks(SubsystemId s) {
    if (root_marks_.size() <= s) root_marks_.resize(s + 1u);
    return root_marks_[s];
}

const ChildOrder& ResourceGraph::ordered_children(VertexId v) {
    // Leaves (most vertices) share one empty order instead of allocating
    // one each: a walk asks every vertex it visits.
    static const ChildOrder kNone;
    if (is_leaf(v)) return kNone;
    std::unique_ptr<ChildOrder>& order = child_order_[v];
    if (order) return *order;
    order = std::make_unique<ChildOrder>();
    for (EdgeId e : out(v)) order->insert(OrderedChild{weight(e), uniq_id(edge_dst_[e]), e});
    return *order;
}

void ResourceGraph::touch_order(VertexId v) {
    if (v >= order_stamp_.size()) order_stamp_.resize(static_cast<size_t>(v) + 1, 0);
    order_stamp_[v] = ++order_clock_;
}

void ResourceGraph::set_weight(EdgeId e, uint64_t w) {
    // The same weight keeps the same key, hence the same place in the
    // order: nothing to do (a reservation in the future reweights every
    // edge it takes to the unchanged weight at now).
    if (weight(e) == w) return;
    touch_order(edge_src_[e]);
    if (ChildOrder* found = child_order_of(edge_src_[e])) {
        ChildOrder& order = *found;
        auto node = order.extract(OrderedChild{weight(e), uniq_id(edge_dst_[e]), e});
        if (!node.empty()) {
            node.value().weight = w;
            order.insert(std::move(node));
        }
    }
    weight_.set(e, w);
}

VertexId ResourceGraph::root(SubsystemId s) const {
    return s < roots_.size() ? roots_[s] : kNoVertex;
}

void ResourceGraph::set_root(SubsystemId s, VertexId v) {
    if (roots_.size() <= s) roots_.resize(s + 1u, kNoVertex);
    roots_[s] = v;
}

const std::vector<VertexId>& ResourceGraph::by_type(TypeId t) const {
    static const std::vector<VertexId> kEmpty;
    return t < by_type_.size() ? by_type_[t] : kEmpty;
}

void ResourceGraph::detach_vertex(VertexId v) { detach_vertices({v}); }

void ResourceGraph::detach_vertices(const std::vector<VertexId>& doomed) {
    // Linear in the doomed vertices, their edges, the degrees of the
    // surviving neighbours and the index lists they appear in: every edge
    // is marked dead first, then each touched list is filtered once
    // (removing vertex by vertex would rescan a list per vertex).
    std::vector<VertexId> neighbours;
    std::vector<TypeId> types;
    std::vector<int64_t> ranks;
    std::vector<VertexId> fresh;  // not removed before
    std::string text;
    for (VertexId v : doomed) {
        if (flags_[v] & kRemoved) continue;
        flags_[v] |= kRemoved;
        fresh.push_back(v);
        if (log_) log_->vertices.push_back(v);
        types.push_back(type_[v]);
        ranks.push_back(rank_[v]);
    }
    auto kill = [&](EdgeId e) {
        if (!edge_alive(e)) return;
        VertexId src = edge_src_[e], dst = edge_dst_[e];
        touch_order(src);
        if (ChildOrder* order = child_order_of(src)) order->erase(OrderedChild{weight(e), uniq_id(dst), e});
        edge_sub_[e] = kNoId;
        --live_edges_;
        if (log_) log_->edges.push_back(e);
        for (VertexId end : {src, dst})
            if (!(flags_[end] & kRemoved)) neighbours.push_back(end);
    };
    for (VertexId v : fresh) {
        for (EdgeId e : out(v)) kill(e);
        for (EdgeId e : in(v)) kill(e);
        out_head_[v] = out_tail_[v] = in_head_[v] = in_tail_[v] = kNoEdge;
        child_order_.erase(v);
        for (uint32_t p = first_path_[v]; p != kNoPath; p = paths_[p].next) {
            text.clear();
            append_path(p, text);
            by_path_.erase(text, path_texts());
            if (log_) log_->keys.push_back(text);
        }
        first_path_[v] = kNoPath;
        if (name_[v] < name_count_.size() && name_count_[name_[v]] > 0 && --name_count_[name_[v]] == 0)
            --distinct_names_;
    }
    std::sort(neighbours.begin(), neighbours.end());
    neighbours.erase(std::unique(neighbours.begin(), neighbours.end()), neighbours.end());
    for (VertexId u : neighbours) {
        drop_dead(out_head_[u], out_tail_[u], out_next_);
        drop_dead(in_head_[u], in_tail_[u], in_next_);
    }
    auto removed = [this](VertexId v) { return (flags_[v] & kRemoved) != 0; };
    std::sort(types.begin(), types.end());
    types.erase(std::unique(types.begin(), types.end()), types.end());
    for (TypeId t : types) {
        auto& list = by_type_[t];
        list.erase(std::remove_if(list.begin(), list.end(), removed), list.end());
    }
    last_rank_.list = nullptr;  // its list may go below
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    for (int64_t rank : ranks) {
        auto r = by_rank_.find(rank);
        if (r == by_rank_.end()) continue;
        r->second.erase(std::remove_if(r->second.begin(), r->second.end(), removed), r->second.end());
        if (r->second.empty()) by_rank_.erase(r);
    }
}

void ResourceGraph::drop_dead(EdgeId& head, EdgeId& tail, std::vector<EdgeId>& next) {
    EdgeId kept_tail = kNoEdge;
    EdgeId e = head;
    head = kNoEdge;
    while (e != kNoEdge) {
        EdgeId following = next[e];
        ++list_steps_;
        if (edge_alive(e)) {
            if (kept_tail == kNoEdge)
                head = e;
            else
                next[kept_tail] = e;
            kept_tail = e;
        }
        next[e] = kNoEdge;
        e = following;
    }
    tail = kept_tail;
}

void ResourceGraph::recount_nodes_up() {
    nodes_up = 0;
    for (VertexId v : by_type(types::kNode)) nodes_up += is_up(v) ? 1 : -1;
}

size_t ResourceGraph::bytes() const {
    size_t n = num_vertices(), m = edge_src_.size();
    size_t vertex_cols = n * (sizeof(TypeId) + 1 + 2 * sizeof(NameId) + sizeof(uint32_t)) + kinds_.capacity() * sizeof(Kind) + id_.bytes() +
                         rank_.bytes() + size_.bytes() + uniq_id_.capacity() * sizeof(int64_t);
    size_t edge_cols = m * (2 * sizeof(VertexId) + sizeof(SubsystemId) + sizeof(EdgeMarks) + sizeof(uint32_t)) +
                       weight_.bytes();
    size_t topo = n * 4 * sizeof(EdgeId) + m * 2 * sizeof(EdgeId);
    size_t paths = paths_.capacity() * sizeof(PathEntry) + path_text_.bytes() +
                   path_texts_.capacity() * sizeof(std::string_view);
    size_t indexes = by_path_.bytes() + n * 2 * sizeof(VertexId);
    return vertex_cols + edge_cols + topo + paths + indexes + strings_.bytes();
}

}  // namespace rq
