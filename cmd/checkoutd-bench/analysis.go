package main

// analysis is what the last profiling found bounds the figures; it is kept with the harness so
// that a new run of `make bench` writes it again, and is to be revised with the code.
const analysis = `## What bounds the figures (profiled with CHECKOUT_PPROF_ADDR, strace, top, PostgreSQL's statement log)

- **The machine.** Sessions run on different 2-core machines, and they differ by about two to
  one: the same binary made 146 SQLite checkouts/s on one AMD EPYC and 307 on an Intel Xeon,
  and on a slow machine one binary measured minutes apart differed by up to half (259 and 377
  SQLite checkouts/s within ten minutes). The machine of the full run of 2026-11-26 was a fast
  one: the code of the session before it, which made 251 and 315 SQLite checkouts/s in two full
  runs elsewhere, made 437 on it (and 349 on PostgreSQL). So a change was judged by statement counts, the writer's held
  time per checkout (a temporary trace), and old and new binaries alternated, never by one run.
  Compare figures only within one report.
- **SQLite: its one writer.** SQLite lets one transaction write at a time, and at 32 shoppers
  that writer is busy about nine tenths of the time (the "write transactions open" column),
  while checkoutd uses about 1.3 of the 2 cores and the load generator a quarter of one (top,
  at 32 shoppers): the writer, not the CPU, is the bound. Held time per checkout is that share
  over the rate, about 2 ms here; traced on the slower machine it was 2.3 ms: init 0.30,
  five one-statement changes 0.11 each, adding the payment 0.35, process_order's reservation
  0.62 and its finish 0.47 (from about 3 ms before the last session: the finish alone was 0.7
  to 0.9). That puts the ceiling near 490 checkouts/s with the writer never idle. Of the CPU
  under write transactions, the pure-Go SQLite engine and its system calls are over half. What
  took it there:
  - The orders table's indexes hold no time that a shopper's change moves: updated_at left the
    (status, updated_at) index, which only recovery used (it finds its few processing orders by
    the status leading the other index), and last_activity_at is recorded to the minute, so a
    checkout's field changes write the order's row and no index entry (on PostgreSQL they are
    heap-only updates). Alternated quick runs: 347 to 390 checkouts/s against 332 to 344.
  - process_order's finish writes the order and its payments as the reservation left them (two
    conditional updates, no reads), and settles the granted ledger entries in the same
    transaction instead of one of its own.
  - Checkpoints run on a connection of their own every 200 ms, off the writer (about 305
    checkouts/s against 240 when measured). The writer's connection opens first and alone, so
    that two connections never switch a new file to WAL at once (SQLite answers that with
    SQLITE_BUSY whatever the busy timeout).
  - A larger page cache for the writer (64 MB) measured no better.
- **PostgreSQL: the two cores, shared.** Nothing is idle at 32 shoppers: PostgreSQL's backends
  take about 0.9 of the 2 cores, checkoutd 0.8 (on the slower machine perf put over half of it in
  the kernel: loopback TCP), the load generator 0.15 (top, at 32 shoppers). PostgreSQL's commit rate is not the
  bound: an fdatasync takes about 120 µs (pg_test_fsync: 8,300 a second) and a checkout commits
  9 times. Over its Unix socket instead of loopback TCP it measured the same. A checkout is 28
  round trips, BEGIN and COMMIT included (PostgreSQL's statement log, one shopper: run
  checkoutd-bench -mark-one-checkout as a role with log_statement = 'all' and count the log's
  lines between its two markers, River's "-- name:" queries aside), from 32
  before the last session and about 230 when first measured: init 4; customer, addresses,
  shipping line and taxes 1 each; the shipping lines' read 1; adding the payment 5;
  process_order's reservation 8 and its finish 6.
- **State reads.** GET /refresh is the JWT check and the order's row; its line items and
  payments come from memory when the order's last change was made by this process at the same
  version, else two more statements. A quarter of checkoutd's CPU on a read is ent building
  each query's SQL text, column by column, on every call.
- **Done so far** (from 35 and 25 checkouts/s at 32 shoppers when first measured):
  a read-only pool beside the SQLite writer, used by every read outside a transaction;
  SQLite's checkpoints off the writer; prepared statements per connection on both databases (on
  PostgreSQL each statement is one round trip instead of two); shops, their gateways, LiFE
  elements and webhook subscriptions, and zones and rates kept in memory for two seconds; an
  order's row, line items and payments kept with the order version they belong to, from init and
  every change; a change of the order's own row (customer, addresses, shipping line, taxes,
  discount codes) written as one UPDATE conditioned on the kept version and an open status,
  falling back to the locked transaction when the row has moved on; adding a payment priced from
  the kept children and answered with the payment it created; no order index on a time a change
  moves, the shopper's activity recorded to the minute; process_order's finish written as the
  reservation left it, the ledger's settle in it; a change's new row worked out instead of read
  back;
  storefront sessions that do not read the order; updates by id instead of ent's UpdateOne,
  which reads each row back; an event's rows written in one statement per kind; init's catalog
  reads and pricing outside its transaction, and process_order's and payment's gateways read
  before theirs; the 160 KB country list of init encoded once and written without a copy; a
  finished SQLite write transaction yielding to the next one waiting; Go's collector at
  GOGC=400; a load generator on fasthttp's client.
- **Webhooks.** Each delivery is a few reads, one write transaction (a conditional UPDATE that
  claims the attempt, and the attempt's row) and the queue's fetch and completion. The queue hands
  out jobs one batch per fetch (every 20 ms while there is work), a batch filling only free
  workers, so delivery goes no faster than workers / 20 ms. The steady run's checkouts are not
  paced: 8 shoppers make as many as the machine allows, here 160 to 240 a second, so 1,000 to
  1,450 deliveries a second are asked for. With 32 workers on SQLite (the first full run of the
  session of 2026-11-26) delivery kept pace only to about 940 a second, and the delay grew to a p99 of 2 to 6 seconds;
  with 64 workers on both databases it kept pace (the full run of 2026-11-26), and a backlog drains at
  about 1,700 a second on SQLite (from 1,070) and 1,350 on PostgreSQL. 128 workers did no
  better.
- **Platform connector** (measured with -only while this section was written: a CPU profile
  through CHECKOUT_PPROF_ADDR, the server's CPU time, pg_stat_activity):
  - *Notifications accepted*: each is checked and written as one queue job outside any
    transaction, one write each: about 8,000 a second on SQLite and 3,800 on PostgreSQL at 32
    senders, far above what is applied.
  - *Notifications applied*: no faster than the queue hands them out. When this was measured
    the notifications had a queue of their own with 16 workers per process, fetching at most
    once every 20 ms (the queue's fetch cooldown), so at most 800 a second; measured 770 on
    SQLite and 720 on PostgreSQL. They now share one queue (platform, 32 workers) with the
    connector calls and sync pages, because every queue polls the database on its own: four
    pollers more put the PostgreSQL checkout p99 at 32 shoppers about 17% higher in alternated
    runs (160 ms against 137 ms), and one put it back within the noise. With
    checkoutd at about 18% of one core meanwhile (SQLite): neither the CPU nor the writer is
    the bound. So the 5 s burst at 32 senders takes 50 s (SQLite) to be applied, every one of
    them. At a steady 500 a second, inside that bound, a notification is applied a few tens of
    milliseconds after its 202. More workers for the platform queue (service/platform/jobs.go) would
    raise the bound, as 64 did for webhooks; not measured here.
  - *Customer sync*: one page of 250 per job, and the next page's job is written in the page's
    transaction. Without LISTEN (the database/sql and SQLite drivers) the queue wakes a worker
    at once only for jobs inserted outside a transaction, so each page waits for the next poll:
    100 ms. That alone is 40 s for 400 pages; SQLite measured 115 ms a page. Importing several
    pages per run of the job (service/connector/syncs.go), within a time budget, would remove
    the wait. On PostgreSQL a page's lookup of the customers it already has (platform_id IN
    (250 ids) FOR UPDATE) took 130 to 180 ms, in PostgreSQL, with checkoutd at 6% of one core
    (pprof): this server runs with autovacuum off, the new table is never analyzed, and the
    planner reads it through the (shop_id, updated_at) index, testing every customer of the
    shop against the 250 ids, slower with each page. A manual ANALYZE of customers in the
    middle of a sync took it from 5 pages a second, falling, to 9.5 (the poll bound): that sync
    took 48 s, against 67 s without. With autovacuum on, PostgreSQL's default, autoanalyze
    comes after the table grows by a tenth; checkoutd could also ANALYZE after a sync's first
    pages, or look customers up by a join on unnest of the ids, which the unique index answers
    whatever the statistics.
  - *Orders to the platform*: process_order writes the create order's job in its transaction,
    so it too waits for the next poll (50 ms on average, 100 at worst) before the call, which
    the example platform answers at once.

- **Customer list** (a million customers on each database, written straight into it; measured
  with -only customers, EXPLAIN ANALYZE and EXPLAIN QUERY PLAN on a kept copy, a CPU profile):
  - *Page 1, page 10,000, the filtered list*: two statements each (the page, its customers'
    addresses), each from an index: customer_live_by_id in id order, where a next_url cursor
    costs what page 1 does, and customer_live_by_last_name for eq(last_name:Smith). About a
    millisecond alone. Their cost was the total: counting a million customers takes 0.1 to 0.2 s
    on either database (an index-only or a parallel sequential scan), and the last-name filter
    read every customer before it had an index (0.3 s on SQLite, 0.7 s on PostgreSQL). The total
    kept 2 seconds then expired under the 8 readers and every reader arriving counted it again:
    p99 of 100 to 150 ms on page 1 and 2.2 s on the filter (SQLite). A kept total is now answered
    while one count runs in the background (docs/api.md), and the filter's total comes from the
    index.
  - *PostgreSQL in a full run* (page 1 at 29 ms alone, the walk to page 10,000 146 s, where
    the figure run alone had 1 ms and 9 s): the connector figures run first and leave another
    shop's 110,875 customers, which come first in id order. The planner took them to be spread
    evenly among the million and read "shop_id = $1 ORDER BY id" from the primary key, filtering
    out all of them before page 1's first row. A list's shop is now a range of one value on
    PostgreSQL, ordered first (filter.PageQuery.Shop), which only the index starting with the
    shop answers. Then the filtered list took 250 ms: after five runs of a prepared statement
    PostgreSQL kept a generic plan, made without the values, that read the Smiths from the
    trigram index and sorted them; the lists now run unprepared, planned with their values
    (platform.PlanWithValues). And a search, whose few hundred rows the planner also took for
    evenly spread, walked the list's order testing every customer (2.5 s when its total was read
    with it); its found rows are now sorted (filter.PageQuery.SortFound).
  - *PostgreSQL in the full run of 2026-12-06* (the tables below): every read took about 45 ms
    alone, page 1 as much as the search, and the walk to page 10,000 took 464 s, where the figure
    run alone had 1.6 to 3.4 ms and 25 s. It was each page's addresses (ent's second statement,
    customer_id IN the page's hundred ids): the connector figures' sync, run before, filled
    customer_addresses with 100,000 rows that this server, without autovacuum, never analyzed,
    and PostgreSQL read all of them for each page (a sequential scan and a hash join, about 70
    ms; 0.8 ms through the (customer_id, platform_id) index once analyzed). Reproduced with
    -only connector,customers -keep on PostgreSQL: an ANALYZE of customer_addresses in the middle
    of the walk brought the reads after it to 1.7 to 2.2 ms alone and p99 47 / 27 / 28 ms (the search 71 ms, fail). The
    loader now analyzes the addresses with the customers, as autovacuum would after such a
    growth; the next full run measures it. In the figure alone that hour: lists p99 42 / 30 / 39
    ms (pass), search 67 ms (fail; 49 and 55 ms in two runs an hour before, on a less loaded
    machine).
  - *The fuzzy search* ("John Smiht", 421 customers found) was CPU in the database's trigram
    index: the trigrams of John, and of Johnson in emails and names, are in some 40,000
    customers, and pg_trgm pads each word, so "  j" and " jo" are in every J name (first_name %
    'john' alone read 62,000 candidates, about 11 ms): 111 ms (SQLite) and 188 ms (PostgreSQL) at
    p99 in the full run of 2026-11-26, 14 and 32 ms alone. The search now looks up the names alike
    to each word first, in the lexicon of the shop's distinct first and last names
    (customer_names, 350,000 of them here; about 1,750 candidates share a trigram with John or
    Smiht, 116 are alike), kept in memory by trigram in each process (topped up before each
    search with the names added since, by any process; each name's trigrams made once, the copy
    holding no pointer per name, for the garbage collector), then reads the customers by pairs of
    names from the partial B-tree index of the live customers on (shop, first name, last name): 6
    alike first names by 2 alike last names are 12 seeks that find the 421 John Smiths, without
    reading every John and every Smith. Tried and dropped on PostgreSQL: a table of each name
    under each of its trigrams (240 MB; p99 59 and 67 ms), and counting the shared trigrams in
    it to send only the names that can be alike (the grouping cost PostgreSQL more, 4.7 ms of
    CPU a search against 3.6, than the transfer saved checkoutd). On SQLite, with the lexicon in
    memory, a search was still about 4 ms of CPU (CPU profile, 8 readers on a kept million): two
    fifths in the count, which looked each of the 421 customers found up again by id in the
    index of the shop's live customers, and a fifth in the page, read through that same index
    and sorted, where SQLite would rather walk the found ids in order and stop at the page's
    last. The page now keeps the shop row by row (filter.PageQuery.FoundByID: no index serves a
    unary plus), so that the ids are read in order from the list; and the names' indexes are
    partial, the live ones and the deleted ones (as the last names' were), so that a search of
    names alone, with nothing else conditioning the list, is counted in them without reading a
    row. Served in turns on one kept SQLite million, 8 readers: about 430 searches/s and p99 37
    to 62 ms before, 825 to 853/s and p99 24 ms after; with checkoutd-bench -only customers, p99
    85 to 93 ms before and 18 ms after (1,042/s, 1.8 ms alone). PostgreSQL answers a search's
    page and total in one query, planned with its values; there a search costs about as much
    of PostgreSQL's CPU as of checkoutd's (some 2.9 ms each under 8 readers, checkoutd's fifth in
    the lexicon's similarities), and its p99 moved from 40 to 55 ms between runs on one binary
    (49 and 55 in two runs of -only customers the same hour): at the target, not under it with
    room. A word of letters is a name only (not looked for in emails), which is what makes the
    pairs possible (docs/api.md "Customers").

- **Remote state authority and overrides** (the remote figure; CPU profiles of checkoutd under
  it, 30 s, beside the plain checkout's): a guest checkout under the bench's RSA makes 10 calls
  (validate_inventory twice, validate_address once, since the billing address is the shipping
  address the RSA passed for the order, validate_email_address, six events), each a signed HTTP
  request to a server on loopback that answers at once. Its CPU beyond the plain checkout's is,
  per checkout: about 0.7 ms in those calls with net/http's client, some 0.3 ms less with
  fasthttp's (below; most of what is left is the loopback write system call, which delivers
  the request to the receiver inside the sender's CPU time; the signature, the timeout's timer
  and the client's metrics a small part), 0.25 to 0.35 ms writing the exchanges to the support
  log (a third more WAL pages per checkout than everything else the checkout writes), about 0.2 ms in JSON and mapping the order state, and
  the system calls of the checkout's own reads and writes growing dearer as the machine gets
  busier: the bench's RSA takes 70 to 90 µs of the bench's CPU a call (its HTTP server and the
  signature check), so that the bench process spends 1.4 to 1.7 ms a checkout under the RSA
  against 0.8 ms under the plain one, and the two cores are saturated in both. It writes to
  the database what the plain checkout writes (on PostgreSQL once a process alone holds in
  memory: 36 statements against 29 while it holds on rows, counted in the statement log), and
  reads the order's version before an answer that changes nothing is taken as the kept order
  and before the final inventory check. Rounds so far took off: the order held for the
  RSA is the order the process kept, sent without a read of its row; order states decoded and
  encoded by segmentio's encoding/json; process order's final inventory check sends the kept
  order; on PostgreSQL a process alone holds in memory (docs/operations.md "Several
  processes"), no hold statements. The last round: an address or email address the RSA passed
  for the order is not put to it again (docs/rsa.md), one call fewer; an answer decodes without
  the JSON decoder's 64-entry maps for its empty properties and cart params and with room for
  the order's lines, and is read into one buffer of its length (allocations per RSA checkout,
  counted over 15 s of load: 798 to 695 KB, 9,670 to 9,290 allocations); the bench's RSA
  decodes with segmentio's JSON. Alternated runs of checkoutd-bench -only remote, the binary
  before and after, twice each: the RSA checkout's CPU went from 4.93 and 4.86 ms to 4.60 and
  4.52 on SQLite, from 5.69 and 5.42 to 5.21 and 5.02 on PostgreSQL (7 to 8% less). Then the
  remote calls moved from net/http's client, which hands each request to two goroutines of its
  own (a write loop and a read loop, and the channels between them and the caller), to
  fasthttp's, which writes the request and reads the answer on the caller's goroutine, through
  the same URL guard and dialer (docs/rsa.md and docs/overrides.md say what it does with a
  connection the remote closed while idle): in three alternated pairs of 15 s windows of the RSA share on
  SQLite, 4.70, 4.32 and 4.28 ms a checkout against 4.89, 4.77 and 4.56 (about 0.28 ms less, in
  every pair), and 639 KB and 8,535 allocations a checkout against 695 KB and 9,286. The ratio
  to the plain checkout moves by a tenth from run to run on one binary, as the machine's other
  load moves the cost of a loopback call; the tables above are the full run's. What is left is
  the calls themselves and their log: a support log that keeps each order state once per
  order rather than once per exchange would take the next part off.

- **Next, in checkoutd's hands**: adding a payment on the kept order (a conditional bump of
  the version instead of the locking read); public ids that grow with time, so that inserts into
  their unique indexes go to the last page, not to a random one of a table that grows; have
  ent's code generator write each hot query's column list once (an ent template) instead of
  building it on every call. process_order's reservation still reads the order's children
  although they are kept: it decides what is authorized, so it reads its rows. Outside them:
  the load generator on another machine.

`
