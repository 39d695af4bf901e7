"""What the tests share: one way to wait for something (:mod:`tests.kit.poll`), a virtual clock
for the tables' timers (:mod:`tests.kit.clock`) and a card room in the test's own process, its
tables driven by clients without sockets (:mod:`tests.kit.table`)."""
