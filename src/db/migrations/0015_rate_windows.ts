/**
 * Rate-limit windows counted by the second (limits/rate-limiter.ts), replacing one row per admitted request: a check
 * reads at most 60 rows per bucket, whatever the limit, instead of counting every admission of the last minute.
 * On PostgreSQL a check is one call of `mailroom_rate_take`, which locks the buckets' rows (in name order), reads
 * their counts with a snapshot taken after the lock, and admits as many of the `p_wanted` requests as every bucket
 * has room for, counting them in every bucket (a refused request is counted in none); its commit
 * does not wait for the disk (an admission lost in a crash lets one more request through), so a bucket's lock is
 * held for the function's run, never across an fsync. SQLite's single writer serialises checks already; it has
 * the tables so that both engines describe the same ones.
 */
export default `
DROP TABLE rate_limit_admissions;
CREATE TABLE rate_limit_buckets (
  bucket TEXT PRIMARY KEY
);
CREATE TABLE rate_limit_counts (
  bucket TEXT NOT NULL,
  second INTEGER NOT NULL,
  admitted INTEGER NOT NULL,
  PRIMARY KEY (bucket, second)
);
`;

export const postgres = `
DROP TABLE rate_limit_admissions;
CREATE TABLE rate_limit_buckets (
  bucket TEXT PRIMARY KEY
);
CREATE TABLE rate_limit_counts (
  bucket TEXT NOT NULL,
  second BIGINT NOT NULL,
  admitted INTEGER NOT NULL,
  PRIMARY KEY (bucket, second)
);
CREATE FUNCTION mailroom_rate_take(p_buckets TEXT[], p_limits INTEGER[], p_second BIGINT, p_wanted INTEGER)
RETURNS TABLE (bucket TEXT, used INTEGER, oldest BIGINT, admitted INTEGER) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  used_of INTEGER[];
  oldest_of BIGINT[];
  room INTEGER;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  INSERT INTO rate_limit_buckets (bucket) SELECT unnest(p_buckets) ON CONFLICT DO NOTHING;
  PERFORM 1 FROM rate_limit_buckets b WHERE b.bucket = ANY (p_buckets) ORDER BY b.bucket FOR UPDATE;
  -- A statement after the lock: its snapshot holds every count committed by the lock's previous holders.
  SELECT array_agg(COALESCE(s.used, 0) ORDER BY w.i), array_agg(s.oldest ORDER BY w.i)
    INTO used_of, oldest_of
    FROM unnest(p_buckets) WITH ORDINALITY AS w(bucket, i)
    LEFT JOIN LATERAL (
      SELECT sum(c.admitted)::INTEGER AS used, min(c.second) AS oldest
      FROM rate_limit_counts c WHERE c.bucket = w.bucket AND c.second > p_second - 60
    ) s ON true;
  SELECT GREATEST(0, LEAST(p_wanted, min(p_limits[i] - used_of[i]))) INTO room
    FROM generate_subscripts(p_buckets, 1) AS i;
  IF room > 0 THEN
    INSERT INTO rate_limit_counts AS c (bucket, second, admitted)
      SELECT unnest(p_buckets), p_second, room
      ON CONFLICT (bucket, second) DO UPDATE SET admitted = c.admitted + EXCLUDED.admitted;
  END IF;
  RETURN QUERY SELECT p_buckets[i], used_of[i], oldest_of[i], room FROM generate_subscripts(p_buckets, 1) AS i;
END;
$$;
`;
