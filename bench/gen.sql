-- Fills the assets table of a media-broker history (schema created by the broker itself) with
-- :count: listens spread evenly over the :span_us: µs (a year, or as dense as a year of 1M) before :now_us:, oldest first (ids grow with time, as
-- in a real history), from eight apps with uneven shares. The row values are MATERIALIZED: SQLite
-- otherwise inlines the CTE and draws a new random() at every use, so an app id came with another
-- app's name and the shares were not the ones written here. Run by bench/run with sqlite3; the
-- placeholders are replaced with sed.
PRAGMA journal_mode = DELETE;
PRAGMA synchronous = OFF;
PRAGMA cache_size = -262144;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :count:),
rows AS MATERIALIZED (
  SELECT i,
         :now_us: - (:count: - i) * (:span_us: / :count:) - abs(random() % 60000000) AS started,
         150000000 + abs(random() % 240000000) AS length,
         abs(random() % 100) AS pick,
         abs(random() % 5000) AS song
  FROM n)
INSERT INTO assets(started, ended, listened, length, title, artists, album, app_id, app_name, app_icon, kind, source)
SELECT started, started + length, length * 9 / 10, length,
       'Song ' || song || ' (' || (song % 7) || ' remaster)',
       'Artist ' || (song % 400) || char(31) || 'Guest ' || (song % 37),
       'Album ' || (song % 900),
       CASE WHEN pick < 35 THEN 'spotify' WHEN pick < 55 THEN 'org.mozilla.firefox' WHEN pick < 70 THEN 'mpv'
            WHEN pick < 80 THEN 'org.gnome.Rhythmbox3' WHEN pick < 88 THEN 'vlc' WHEN pick < 94 THEN 'org.strawberrymusicplayer.strawberry'
            WHEN pick < 98 THEN 'chromium' ELSE 'io.bassi.Amberol' END,
       CASE WHEN pick < 35 THEN 'Spotify' WHEN pick < 55 THEN 'Firefox' WHEN pick < 70 THEN 'mpv'
            WHEN pick < 80 THEN 'Rhythmbox' WHEN pick < 88 THEN 'VLC media player' WHEN pick < 94 THEN 'Strawberry'
            WHEN pick < 98 THEN 'Chromium' ELSE 'Amberol' END,
       NULL, 'music', 'mpris'
FROM rows;
COMMIT;
PRAGMA journal_mode = WAL;
SELECT count(*) FROM assets;
