/// One step of the schema's history: the SQL that takes a database from `version - 1` to `version`.
///
/// Steps are only ever appended. A released step is never edited, because databases in the field
/// have already run it.
struct Migration {
    let version: Int
    let sql: String
}

/// The history database's schema, as ordered migrations recorded in `PRAGMA user_version`.
enum Schema {
    static let migrations: [Migration] = [
        Migration(version: 1, sql: """
            -- AUTOINCREMENT so that an id is never handed out twice, even after the newest assets are
            -- purged: the contract promises ids that are unique and stable, and journaling apps keep them.
            CREATE TABLE assets(
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                started INTEGER NOT NULL,
                ended INTEGER NOT NULL,
                listened INTEGER NOT NULL,
                length INTEGER,
                title TEXT NOT NULL,
                artists TEXT,
                album TEXT,
                app_id TEXT NOT NULL,
                app_name TEXT,
                app_icon TEXT,
                kind TEXT,
                source TEXT NOT NULL
            );
            -- The same listen delivered twice (a replayed signal, a retried donation) is one asset.
            CREATE UNIQUE INDEX assets_identity ON assets(app_id, started, title);
            -- RecentMedia walks these in its own order, so a page is a range scan, not a sort.
            CREATE INDEX assets_by_started ON assets(started DESC, id DESC);
            CREATE INDEX assets_by_app ON assets(app_id, started DESC, id DESC);

            CREATE TABLE settings(
                key TEXT PRIMARY KEY,
                value TEXT NOT NULL
            ) WITHOUT ROWID;

            -- Listens still playing, checkpointed so a crash loses none (issue 3). The asset columns are
            -- spelled out again rather than generated from AssetColumns: a released step never changes.
            CREATE TABLE open_listens(
                key TEXT PRIMARY KEY,
                started INTEGER NOT NULL,
                ended INTEGER NOT NULL,
                listened INTEGER NOT NULL,
                length INTEGER,
                title TEXT NOT NULL,
                artists TEXT,
                album TEXT,
                app_id TEXT NOT NULL,
                app_name TEXT,
                app_icon TEXT,
                kind TEXT,
                source TEXT NOT NULL,
                checkpointed INTEGER NOT NULL
            ) WITHOUT ROWID;
            """),
        Migration(version: 2, sql: """
            -- Moments and artwork (issue 19). `artwork` names a file in the artwork folder beside the
            -- history (its content hash and extension); `artwork_url` is a player's http(s) art URL.
            ALTER TABLE assets ADD COLUMN artwork TEXT;
            ALTER TABLE assets ADD COLUMN artwork_url TEXT;
            ALTER TABLE open_listens ADD COLUMN artwork TEXT;
            ALTER TABLE open_listens ADD COLUMN artwork_url TEXT;
            CREATE INDEX assets_by_artwork ON assets(artwork) WHERE artwork IS NOT NULL;
            -- The art files kept, for the bound on their total size: the least recently used go first.
            CREATE TABLE artwork(
                file TEXT PRIMARY KEY,
                size INTEGER NOT NULL,
                used INTEGER NOT NULL
            ) WITHOUT ROWID;
            """),
        Migration(version: 3, sql: """
            -- Moments group a day's listens by their times alone: with `ended` in the index that read
            -- never touches the table.
            DROP INDEX assets_by_started;
            CREATE INDEX assets_by_started ON assets(started DESC, id DESC, ended);
            """),
        Migration(version: 4, sql: """
            -- Sites in browsers (issue 34): the host of the page a browser played a listen on.
            ALTER TABLE assets ADD COLUMN site TEXT;
            ALTER TABLE open_listens ADD COLUMN site TEXT;
            CREATE INDEX assets_by_site ON assets(site) WHERE site IS NOT NULL;
            """),
        Migration(version: 5, sql: """
            -- Corrections (issue 34): the words of an asset as first recorded, while it holds the
            -- person's correction, so the correction can be undone. Gone with the asset.
            CREATE TABLE edits(
                asset_id INTEGER PRIMARY KEY,
                title TEXT NOT NULL,
                artists TEXT,
                album TEXT,
                edited INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TRIGGER edits_go_with_their_asset AFTER DELETE ON assets
                BEGIN DELETE FROM edits WHERE asset_id = old.id; END;
            """),
        Migration(version: 6, sql: """
            -- Correction rules (issue 34): the person's correction of one app's listen, applied to
            -- its later listens told with the same title and artists. `artists` is '' for none, so
            -- the key is unique; a `new_` column left NULL keeps what the player told, except that
            -- `album_set` says whether the album is corrected (to `new_album`, NULL clearing it).
            -- AUTOINCREMENT: a removed rule's id is never given again, so `rules remove ID` typed
            -- from an old listing cannot remove another rule.
            CREATE TABLE correction_rules(
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                app_id TEXT NOT NULL,
                title TEXT NOT NULL,
                artists TEXT NOT NULL,
                new_title TEXT,
                new_artists TEXT,
                album_set INTEGER NOT NULL DEFAULT 0,
                new_album TEXT,
                created INTEGER NOT NULL,
                UNIQUE(app_id, title, artists)
            );
            """),
    ]

    /// The newest version this code can read and write.
    static var currentVersion: Int { migrations.last?.version ?? 0 }

    /// The version recorded in the file. Reading it is the first read of a freshly opened file, so a
    /// file that is not a database fails here with `SQLITE_NOTADB`.
    ///
    /// The corresponding SQLite statement is `PRAGMA user_version`.
    static func version(of db: SQLiteDatabase) throws(SQLiteError) -> Int {
        Int(try db.scalarInt("PRAGMA user_version") ?? 0)
    }

    /// Brings `db` up to `currentVersion`, one transaction per step, so a crash between steps leaves
    /// a database at a version it really has.
    ///
    /// The version is read again inside each transaction: another process migrating the same file at
    /// the same time then finds the step done instead of running it twice.
    static func migrate(_ db: SQLiteDatabase) throws(SQLiteError) {
        for migration in migrations {
            try db.transaction { () throws(SQLiteError) in
                guard try version(of: db) < migration.version else { return }
                try db.execute(migration.sql)
                try db.execute("PRAGMA user_version = \(migration.version)")
            }
        }
    }
}
