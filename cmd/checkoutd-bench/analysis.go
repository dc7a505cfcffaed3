package main

// analysis is what the last profiling found bounds the figures; it is kept with the harness so
// that a new run of `make bench` writes it again, and is to be revised with the code.
const analysis = `## What bounds the figures (profiled with CHECKOUT_PPROF_ADDR, pg_stat_statements, top)

- **The machine's two cores, shared.** At 32 shoppers the server, the database and the load
  generator (with its gateway and webhook receiver) split two cores, and nothing is idle: on
  PostgreSQL about 80-105% for checkoutd, 60% for PostgreSQL's backends and 30% for the generator;
  on SQLite about 125% for checkoutd and 45-50% for the generator. The figures are a measure of
  CPU per checkout more than of any one component.
- **Not the commit rate.** SQLite runs WAL with synchronous NORMAL (no fsync per commit) and its
  one writer is busy about 60% of the time at 32 shoppers (the "write transactions open" column).
  On PostgreSQL the write transactions stay open longer (about 13 at once) because their round
  trips wait for CPU, not for the WAL: no session is seen waiting on WALSync or on a lock, and
  pg_stat_statements puts every checkout statement under 0.3 ms of execution.
- **What one checkout costs.** About 8.5 ms of server CPU on SQLite (the pure-Go SQLite engine,
  ent's query building and scanning, JSON, the HTTP stack) and, on PostgreSQL, about 12 ms in
  checkoutd plus 7 ms in PostgreSQL. 300 checkouts/s on SQLite on this machine would need a
  checkout to cost about half of what it does; 200/s on PostgreSQL about a third.
- **Done so far** (from 35 and 25 checkouts/s at 32 shoppers when first measured):
  a read-only pool beside the SQLite writer; prepared statements per connection on both
  databases (on PostgreSQL this also makes each statement one round trip instead of two);
  shops, zones and rates kept in memory for two seconds; a change written as one UPDATE with its
  version bump and answered from its own transaction (SQLite: from the read pool after commit);
  reads answered from the row authentication read; one order view for process_order's events;
  the 160 KB country list of init encoded once. One checkout went from 131 statements to 97
  (20 of them BEGIN and COMMIT) and from about 230 round trips to 97.
- **Webhooks.** Each delivery is a few reads, one write transaction (a conditional UPDATE that
  claims the attempt, and the attempt's row) and the queue's fetch and completion. The queue hands
  out jobs one batch per fetch, a batch filling only free workers, so delivery went no faster
  than workers / 20 ms (310/s with SQLite's 8 workers, 650/s with PostgreSQL's 20); with 32 and
  64 workers a backlog drains at the rates above, and at 8 shoppers' checkouts (330 to 450
  deliveries/s offered) callbacks arrive well within a second of the commit.
- **Next, in checkoutd's hands**: authenticate storefront calls without reading the order
  (the change's locked read is enough: 7 statements per checkout), keep the order row's JSON
  columns from being decoded on reads that do not need them, and measure with the load
  generator on another machine.

`
