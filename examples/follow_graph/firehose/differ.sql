-- Users whose sets differ from the edge table's (none, when both took the same stream).
SELECT count(*)
  FROM users u
  FULL JOIN (SELECT target AS uid, rb_build_agg(actor) AS followers FROM follows GROUP BY target) i
       USING (uid)
  FULL JOIN (SELECT actor AS uid, rb_build_agg(target) AS following FROM follows GROUP BY actor) o
       USING (uid)
 WHERE coalesce(u.followers, '{}') <> coalesce(i.followers, '{}')
    OR coalesce(u.following, '{}') <> coalesce(o.following, '{}');
