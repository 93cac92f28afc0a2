/**
 * State the instances sharing a store share: the admissions of the rate-limit windows (kept one minute), and the
 * next turn of each periodic job, so a job runs once across instances however many there are.
 */
export default `
CREATE TABLE rate_limit_admissions (
  bucket TEXT NOT NULL,
  admitted_at INTEGER NOT NULL
);
CREATE INDEX rate_limit_admissions_window ON rate_limit_admissions(bucket, admitted_at);

CREATE TABLE periodic_jobs (
  name TEXT PRIMARY KEY,
  next_run_at INTEGER NOT NULL
);
`;

export const postgres = `
CREATE TABLE rate_limit_admissions (
  bucket TEXT NOT NULL,
  admitted_at BIGINT NOT NULL
);
CREATE INDEX rate_limit_admissions_window ON rate_limit_admissions(bucket, admitted_at);

CREATE TABLE periodic_jobs (
  name TEXT PRIMARY KEY,
  next_run_at BIGINT NOT NULL
);
`;
