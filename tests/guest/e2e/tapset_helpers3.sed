# timer:timer_start and workqueue.execute also fire inside the runtime's
# own work on a CPU whose context it holds (the transport's periodic
# flush, runtime/transport.c, queues work and arms timers): such hits are
# skipped, counted and reported, sometimes one, sometimes none
/^WARNING: Number of errors: 0, skipped probes: [0-9]+$/d
/^WARNING: [0-9]+ probes skipped \(reentrant hit\)$/d
