// Thread pool with a bounded task queue and futures for results.
#include <condition_variable>
#include <functional>
#include <future>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

#define POOL_ASSERT(cond) do { if (!(cond)) std::abort(); } while (0)

namespace work {

constexpr std::size_t kDefaultQueueLimit = 1024;
inline int active_pools = 0;

enum class Priority { Low, Normal, High };

using Task = std::function<void()>;
typedef std::unique_lock<std::mutex> Lock;

struct Stats {
  std::size_t submitted = 0;
  std::size_t completed = 0;
};

template <typename T>
class Channel;

class Executor {
 public:
  virtual ~Executor() = default;
  virtual void post(Task task, Priority priority = Priority::Normal) = 0;
};

class ThreadPool final : public Executor {
 public:
  explicit ThreadPool(std::size_t threads, std::size_t queue_limit = kDefaultQueueLimit);
  ThreadPool(const ThreadPool&) = delete;
  ~ThreadPool() override;

  void post(Task task, Priority priority = Priority::Normal) override;

  template <typename F>
  auto submit(F&& f) -> std::future<decltype(f())> {
    auto promise = std::make_shared<std::promise<decltype(f())>>();
    post([promise, f = std::forward<F>(f)]() mutable { promise->set_value(f()); });
    return promise->get_future();
  }

  Stats stats() const { return stats_; }
  static ThreadPool& shared();

 private:
  struct Entry {
    Priority priority;
    Task task;
    bool operator<(const Entry& other) const { return priority < other.priority; }
  };

  void worker_loop();

  std::vector<std::thread> workers_;
  std::priority_queue<Entry> queue_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::size_t queue_limit_;
  bool stopping_ = false;
  Stats stats_;
};

ThreadPool::ThreadPool(std::size_t threads, std::size_t queue_limit) : queue_limit_(queue_limit) {
  for (std::size_t i = 0; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
  ++active_pools;
}

ThreadPool::~ThreadPool() {
  {
    Lock lock(mutex_);
    stopping_ = true;
  }
  ready_.notify_all();
  for (auto& worker : workers_) worker.join();
  --active_pools;
}

void ThreadPool::post(Task task, Priority priority) {
  Lock lock(mutex_);
  POOL_ASSERT(queue_.size() < queue_limit_);
  queue_.push(Entry{priority, std::move(task)});
  ++stats_.submitted;
  ready_.notify_one();
}

void ThreadPool::worker_loop() {
  for (;;) {
    Lock lock(mutex_);
    ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_ && queue_.empty()) return;
    Task task = queue_.top().task;
    queue_.pop();
    lock.unlock();
    task();
  }
}

ThreadPool& ThreadPool::shared() {
  static ThreadPool pool(clamp_threads(std::thread::hardware_concurrency()));
  return pool;
}

namespace {
std::size_t clamp_threads(std::size_t requested) { return requested == 0 ? 1 : requested; }
}  // namespace

}  // namespace work

int main() {
  return work::ThreadPool::shared().submit([] { return 42; }).get() == 42 ? 0 : 1;
}
