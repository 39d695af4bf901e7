"""What the tests share: one way to wait for something (:mod:`tests.kit.poll`), a virtual clock
for the tables' timers (:mod:`tests.kit.clock`), a card room in the test's own process, its
tables driven by clients without sockets (:mod:`tests.kit.table`), the databases, the cast and
the servers a test starts (:mod:`tests.kit.room`), and the ports those servers listen on
(:mod:`tests.kit.ports`)."""
