// intro_sort: the exact algorithm of libstdc++'s std::sort.
//
// Match policies sort candidates that often have equal scores, and the
// reference's choice among equals is whatever GCC's introsort produces
// (policies.md §7). Spelling the algorithm out keeps our tie order
// identical with any standard library: median-of-three pivot moved to the
// front, unguarded Hoare partition, recursion on the right part, heap sort
// when the depth budget (2*floor(log2 n)) runs out, and a final insertion
// sort whose first 16 elements are guarded.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <utility>
#include <vector>

namespace rq {

namespace intro_sort_detail {

inline constexpr std::ptrdiff_t kThreshold = 16;

template <class It, class Cmp>
void move_median_to_first(It result, It a, It b, It c, Cmp& cmp) {
    using std::iter_swap;
    if (cmp(*a, *b)) {
        if (cmp(*b, *c))
            iter_swap(result, b);
        else if (cmp(*a, *c))
            iter_swap(result, c);
        else
            iter_swap(result, a);
    } else if (cmp(*a, *c)) {
        iter_swap(result, a);
    } else if (cmp(*b, *c)) {
        iter_swap(result, c);
    } else {
        iter_swap(result, b);
    }
}

template <class It, class Cmp>
It unguarded_partition(It first, It last, It pivot, Cmp& cmp) {
    while (true) {
        while (cmp(*first, *pivot)) ++first;
        --last;
        while (cmp(*pivot, *last)) --last;
        if (!(first < last)) return first;
        std::iter_swap(first, last);
        ++first;
    }
}

template <class It, class Cmp>
void unguarded_linear_insert(It last, Cmp& cmp) {
    auto value = std::move(*last);
    It next = last;
    --next;
    while (cmp(value, *next)) {
        *last = std::move(*next);
        last = next;
        --next;
    }
    *last = std::move(value);
}

template <class It, class Cmp>
void insertion_sort(It first, It last, Cmp& cmp) {
    if (first == last) return;
    for (It i = first + 1; i != last; ++i) {
        if (cmp(*i, *first)) {
            auto value = std::move(*i);
            std::move_backward(first, i, i + 1);
            *first = std::move(value);
        } else {
            unguarded_linear_insert(i, cmp);
        }
    }
}

template <class It, class Cmp>
void final_insertion_sort(It first, It last, Cmp& cmp) {
    if (last - first > kThreshold) {
        insertion_sort(first, first + kThreshold, cmp);
        for (It i = first + kThreshold; i != last; ++i) unguarded_linear_insert(i, cmp);
    } else {
        insertion_sort(first, last, cmp);
    }
}

template <class It, class T, class Cmp>
void push_heap(It first, std::ptrdiff_t hole, std::ptrdiff_t top, T value, Cmp& cmp) {
    std::ptrdiff_t parent = (hole - 1) / 2;
    while (hole > top && cmp(*(first + parent), value)) {
        *(first + hole) = std::move(*(first + parent));
        hole = parent;
        parent = (hole - 1) / 2;
    }
    *(first + hole) = std::move(value);
}

template <class It, class T, class Cmp>
void adjust_heap(It first, std::ptrdiff_t hole, std::ptrdiff_t len, T value, Cmp& cmp) {
    const std::ptrdiff_t top = hole;
    std::ptrdiff_t child = hole;
    while (child < (len - 1) / 2) {
        child = 2 * (child + 1);
        if (cmp(*(first + child), *(first + (child - 1)))) --child;
        *(first + hole) = std::move(*(first + child));
        hole = child;
    }
    if ((len & 1) == 0 && child == (len - 2) / 2) {
        child = 2 * (child + 1);
        *(first + hole) = std::move(*(first + (child - 1)));
        hole = child - 1;
    }
    push_heap(first, hole, top, std::move(value), cmp);
}

template <class It, class Cmp>
void heap_sort(It first, It last, Cmp& cmp) {
    std::ptrdiff_t len = last - first;
    if (len >= 2) {  // make_heap
        for (std::ptrdiff_t parent = (len - 2) / 2;; --parent) {
            auto value = std::move(*(first + parent));
            adjust_heap(first, parent, len, std::move(value), cmp);
            if (parent == 0) break;
        }
    }
    while (last - first > 1) {  // sort_heap: repeated pop_heap
        --last;
        auto value = std::move(*last);
        *last = std::move(*first);
        adjust_heap(first, std::ptrdiff_t(0), last - first, std::move(value), cmp);
    }
}

template <class It, class Cmp>
void introsort_loop(It first, It last, std::ptrdiff_t depth, Cmp& cmp) {
    while (last - first > kThreshold) {
        if (depth == 0) {
            heap_sort(first, last, cmp);
            return;
        }
        --depth;
        It mid = first + (last - first) / 2;
        move_median_to_first(first, first + 1, mid, last - 1, cmp);
        It cut = unguarded_partition(first + 1, last, first, cmp);
        introsort_loop(cut, last, depth, cmp);
        last = cut;
    }
}

inline std::ptrdiff_t floor_log2(std::ptrdiff_t n) {
    std::ptrdiff_t k = 0;
    while (n > 1) n >>= 1, ++k;
    return k;
}

}  // namespace intro_sort_detail

template <class It, class Cmp>
void intro_sort(It first, It last, Cmp cmp) {
    if (last - first <= 1) return;
    intro_sort_detail::introsort_loop(first, last, 2 * intro_sort_detail::floor_log2(last - first), cmp);
    intro_sort_detail::final_insertion_sort(first, last, cmp);
}

// sort_distinct_runs: sorts `a` by merging its strictly ordered runs (each
// a stretch where cmp(a[i], a[i+1]) holds), when there are at most
// `max_runs` (at most 8) of them and no two elements are equal. Keys that are all
// distinct have one sorted order, so the result is intro_sort's. Returns
// false, with the elements in some order, when there are more runs or two
// equal keys: then the caller puts them back and sorts (ties keep
// intro_sort's order). Why: a walk's candidates at the root arrive as one
// to three such runs (the children in weight order), where the merge is
// linear and intro_sort n log n (docs/replay-performance.md "Sixth round").
template <class T, class Cmp>
bool sort_distinct_runs(std::vector<T>& a, std::vector<T>& scratch, size_t max_runs, Cmp cmp) {
    size_t n = a.size();
    size_t ends[8];
    if (max_runs > 8) max_runs = 8;
    size_t runs = 0;
    for (size_t i = 1; i <= n; ++i) {
        if (i < n && cmp(a[i - 1], a[i])) continue;
        if (runs == max_runs) return false;
        ends[runs++] = i;
    }
    if (runs <= 1) return true;
    scratch.resize(n);
    for (size_t r = 1; r < runs; ++r) {
        // a[0, ends[r-1]) is sorted and distinct; merge a[ends[r-1], ends[r]) into it.
        size_t i = 0, mid = ends[r - 1], j = mid, end = ends[r], out = 0;
        while (i < mid && j < end) {
            if (cmp(a[j], a[i]))
                scratch[out++] = a[j++];
            else if (cmp(a[i], a[j]))
                scratch[out++] = a[i++];
            else
                return false;  // equal keys (both are heads when the first is due)
        }
        while (i < mid) scratch[out++] = a[i++];
        while (j < end) scratch[out++] = a[j++];
        std::copy(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(end), a.begin());
    }
    return true;
}

}  // namespace rq
