/**
 * log2 of scrypt's N in tests: a hash costs microseconds instead of ~75 ms. Apps get it through their config
 * (`passwordCost`), CLI runs through FEEDGATE_PASSWORD_COST, the store contract suites through store-rows.ts;
 * tests/server/services/credentials.test.ts checks the production cost.
 */
export const TEST_PASSWORD_COST = 4;
