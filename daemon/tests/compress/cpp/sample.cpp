// lru.hpp-style sample: a least-recently-used cache.
#pragma once

#include <list>
#include <optional>
#include <string>
#include <unordered_map>

namespace cache {

constexpr const char* kBanner = "// not a comment";
constexpr const char* kRaw = R"raw(/* raw string */   
  second line)raw";

/// Capacity used when none is given.
inline constexpr std::size_t kDefaultCapacity = 128;

template <typename K, typename V>
class Lru {
 public:
  explicit Lru(std::size_t capacity = kDefaultCapacity) : capacity_(capacity) {
    // reserve up front
    index_.reserve(capacity);
  }

  std::size_t size() const { return index_.size(); }

  std::optional<V> get(const K& key) {
    auto it = index_.find(key);
    if (it == index_.end()) return std::nullopt;
    order_.splice(order_.begin(), order_, it->second);
    return it->second->second;
  }

  void put(const K& key, V value);

 private:
  using Entry = std::pair<K, V>;
  std::size_t capacity_;
  std::list<Entry> order_;  // most recent first
  std::unordered_map<K, typename std::list<Entry>::iterator> index_;
};

template <typename K, typename V>
void Lru<K, V>::put(const K& key, V value) {
  auto evict = [this]() {
    index_.erase(order_.back().first);
    order_.pop_back();
  };
  if (index_.size() >= capacity_) evict();
  order_.emplace_front(key, std::move(value));
  index_[key] = order_.begin();
}

auto make_key = [](const std::string& prefix, int id) {
  return prefix + ":" + std::to_string(id);
};

struct Stats {
  long hits = 0;  // lookups served
  long misses = 0;
  double ratio() const {
    long total = hits + misses;
    return total ? static_cast<double>(hits) / total : 0.0;
  }
};

}  // namespace cache
