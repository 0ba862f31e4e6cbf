/* Per-key build locks: several harness processes (meson runs tests in parallel) may ask
 * for the same kernel at once; the second waits, then finds the first one's entry. */
#ifndef HB_COMMON_LOCK_H
#define HB_COMMON_LOCK_H

/* Takes an exclusive flock on <cache>/locks/<name>.lock, printing "waiting for <what>"
 * when another process holds it. Returns the fd (close it to unlock), -1 after printing. */
int kernel_cache_lock(const char *cache, const char *name, const char *what);
void kernel_cache_unlock(int fd);

#endif
