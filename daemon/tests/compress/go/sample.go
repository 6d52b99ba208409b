//go:build linux || darwin
// +build linux darwin

// Package queue is a bounded work queue.
package queue

/*
#include <stdlib.h>
static int answer(void) { return 42; }
*/
import "C"

import (
	"context" // cancellation
	"errors"
	"sync"
)

// ErrFull is returned when the queue is at capacity.
var ErrFull = errors.New("queue: full // not a comment")

const raw = `raw string with /* stars */ and trailing spaces   
second line`

// Queue holds items of any type.
type Queue[T any] struct {
	mu    sync.Mutex // guards items
	items []T
	limit int
}

// Handler processes one item.
type Handler[T any] interface {
	Handle(ctx context.Context, item T) error
}

var defaultHandler = func(item any) error {
	// placeholder handler
	_ = item
	return nil
}

// New returns an empty queue.
func New[T any](limit int) *Queue[T] {
	return &Queue[T]{limit: limit}
}

// Push adds an item or fails when full.
func (q *Queue[T]) Push(item T) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) >= q.limit {
		return ErrFull
	}
	q.items = append(q.items, item)
	return nil
}

// Drain hands every item to h.
func (q *Queue[T]) Drain(ctx context.Context, h Handler[T]) error {
	cleanup := func() {
		q.items = q.items[:0]
	}
	defer cleanup()
	for _, item := range q.items {
		if err := h.Handle(ctx, item); err != nil {
			return err
		}
	}
	return nil
}

//go:noinline
func (q *Queue[T]) Len() int { return len(q.items) }

func answer() int { return int(C.answer()) }
