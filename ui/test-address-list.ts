/**
 * The simulator's test addresses and what happens to each, in the README's words (its "Test addresses" table): the
 * admin UI's copy of src/providers/simulator.ts's TEST_ADDRESSES, which the UI cannot import. Invariant: word for word
 * the same as that table — test/readme.test.ts compares the two and the README.
 */
export const TEST_ADDRESS_DOMAIN = "simulator.mailroom.test";

export const TEST_ADDRESS_LIST: ReadonlyArray<[local: string, what: string]> = [
  ["delivered", "delivered"],
  ["bounced", "refused with `550 5.1.1`: `bounced`, and the address is suppressed"],
  ["complained", "delivered, then complained about: `complained`, and the address is suppressed"],
  ["delayed", "deferred twice (`email.delivery_delayed`, retried after 2 s), then delivered"],
  [
    "suppressed",
    "on the suppression list from the start: beside another recipient it is recorded `suppressed` and never attempted; alone, the send is refused with 422 `domain_not_verified`, as any message whose every recipient is suppressed",
  ],
];
