/**
 * log2 of scrypt's N in tests: a hash costs microseconds instead of ~75 ms. Apps get it through their config
 * (`passwordCost`), CLI runs through FEEDGATE_PASSWORD_COST, the store contract suites through store-rows.ts;
 * tests/server/services/credentials.test.ts checks the production cost. The lowest the setting takes, which the test
 * double (feedgate/testing) hashes at too.
 */
export { LOWEST_PASSWORD_COST as TEST_PASSWORD_COST } from "../../src/server/settings/table.js";
