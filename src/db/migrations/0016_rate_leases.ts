/**
 * Leased admissions (limits/rate-limiter.ts): an instance sharing the store takes, in one call, the admissions it
 * expects to need for the rest of the current second, admits from them in memory, and gives back what it did not
 * use once that second is over. `mailroom_rate_take` gains the give-back: `p_return` admissions taken for
 * `p_return_second` are subtracted from that second's count, under the same bucket locks, before the new ones are
 * counted. SQLite's store is one instance's: nothing changes there.
 */
/** SQLite: nothing to change; a statement, since a migration is never blank. */
export default "SELECT 1;";

export const postgres = `
DROP FUNCTION mailroom_rate_take(TEXT[], INTEGER[], BIGINT, INTEGER);
CREATE FUNCTION mailroom_rate_take(
  p_buckets TEXT[], p_limits INTEGER[], p_second BIGINT, p_wanted INTEGER, p_return_second BIGINT, p_return INTEGER
)
RETURNS TABLE (bucket TEXT, used INTEGER, oldest BIGINT, admitted INTEGER) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  used_of INTEGER[];
  oldest_of BIGINT[];
  room INTEGER;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  INSERT INTO rate_limit_buckets (bucket)
    SELECT w.bucket FROM unnest(p_buckets) AS w(bucket)
    WHERE NOT EXISTS (SELECT 1 FROM rate_limit_buckets b WHERE b.bucket = w.bucket)
    ON CONFLICT DO NOTHING;
  PERFORM 1 FROM rate_limit_buckets b WHERE b.bucket = ANY (p_buckets) ORDER BY b.bucket FOR UPDATE;
  IF p_return > 0 THEN
    UPDATE rate_limit_counts c SET admitted = GREATEST(0, c.admitted - p_return)
      WHERE c.bucket = ANY (p_buckets) AND c.second = p_return_second;
  END IF;
  -- A statement after the lock: its snapshot holds every count committed by the lock's previous holders.
  SELECT array_agg(COALESCE(s.used, 0) ORDER BY w.i), array_agg(s.oldest ORDER BY w.i)
    INTO used_of, oldest_of
    FROM unnest(p_buckets) WITH ORDINALITY AS w(bucket, i)
    LEFT JOIN LATERAL (
      SELECT sum(c.admitted)::INTEGER AS used, min(c.second) FILTER (WHERE c.admitted > 0) AS oldest
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
