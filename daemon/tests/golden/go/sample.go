// Package cache keeps recently used values in memory with a size bound.
package cache

import (
	"errors"
	"sync"
	"time"
)

// DefaultCapacity is used when New is given a non-positive size.
const DefaultCapacity = 128

const (
	shardCount = 16
	MaxTTL     = 24 * time.Hour
)

var ErrNotFound = errors.New("cache: key not found")

var (
	mu      sync.Mutex
	metrics = map[string]int{}
)

// Key identifies a cached value.
type Key = string

// Evictor decides which entry leaves when the cache is full.
type Evictor interface {
	Evict(entries []*entry) int
	Name() string
}

// Stats is a snapshot of the cache's counters.
type Stats struct {
	Hits, Misses int64
	evictions    int64
}

type entry struct {
	key     Key
	value   any
	expires time.Time
}

type lruEvictor struct{}

func (lruEvictor) Evict(entries []*entry) int { return 0 }

func (lruEvictor) Name() string { return "lru" }

// Cache is safe for concurrent use.
type Cache[V any] struct {
	mu      sync.RWMutex
	items   map[Key]*entry
	evictor Evictor
	stats   Stats
}

type Option func(*Cache[any])

// New returns an empty cache holding at most capacity values.
func New[V any](capacity int, opts ...Option) *Cache[V] {
	if capacity <= 0 {
		capacity = DefaultCapacity
	}
	return &Cache[V]{items: make(map[Key]*entry, capacity), evictor: lruEvictor{}}
}

// Get returns the value stored under key.
func (c *Cache[V]) Get(key Key) (V, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var zero V
	e, ok := c.items[key]
	if !ok || time.Now().After(e.expires) {
		c.stats.Misses++
		return zero, ErrNotFound
	}
	c.stats.Hits++
	return e.value.(V), nil
}

func (c *Cache[V]) evictLocked() {
	const maxScan = 8
	victims := make([]*entry, 0, maxScan)
	for _, e := range c.items {
		victims = append(victims, e)
	}
	i := c.evictor.Evict(victims)
	delete(c.items, victims[i].key)
}

func (s Stats) HitRate() float64 {
	total := s.Hits + s.Misses
	if total == 0 {
		return 0
	}
	return float64(s.Hits) / float64(total)
}

func shardFor(key Key) int {
	h := 0
	for _, r := range key {
		h = h*31 + int(r)
	}
	return h % shardCount
}
