/* Time, modelled deterministically: a run of symcross must not depend on
 * when it happens. The clock starts at 2023-11-14 22:13:20 UTC
 * (1,700,000,000 s) and each call that reads it advances it by one
 * millisecond, so elapsed times are small, positive and repeatable.
 * Programs that seed rand() from time(NULL) therefore see one fixed seed. */
#include <sys/time.h>
#include <time.h>

static long long now_us = 1700000000LL * 1000000;

static long long tick(void) {
  now_us += 1000;
  return now_us;
}

time_t time(time_t *t) {
  time_t s = (time_t)(tick() / 1000000);
  if (t)
    *t = s;
  return s;
}

int gettimeofday(struct timeval *tv, void *tz) {
  (void)tz;
  long long us = tick();
  if (tv) {
    tv->tv_sec = (time_t)(us / 1000000);
    tv->tv_usec = (suseconds_t)(us % 1000000);
  }
  return 0;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
  (void)id;
  long long us = tick();
  if (ts) {
    ts->tv_sec = (time_t)(us / 1000000);
    ts->tv_nsec = (long)(us % 1000000) * 1000;
  }
  return 0;
}

/* Processor time since the start, in CLOCKS_PER_SEC units (microseconds). */
clock_t clock(void) { return (clock_t)(tick() - 1700000000LL * 1000000); }
