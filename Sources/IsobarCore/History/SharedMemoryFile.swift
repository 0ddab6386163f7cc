import Foundation
import GRDB

/// The history's `-shm` file: SQLite's index of the WAL, shared through `mmap` by every
/// connection, holding nothing that is not also in the database and the WAL. SQLite
/// rebuilds it (truncates it) when the first connection opens the database; one this user
/// cannot write (left by another user, a `sudo isobar build`, or a copy with mode 0444)
/// it can only open read-only, and then it cannot write the database either
/// (SQLITE_READONLY), which read as "the database cannot be written".
struct SharedMemoryFile {
    let database: URL

    var path: String { database.path + "-shm" }

    /// Removes the file when it is stale — no other program has the history open — so that
    /// SQLite makes a new one; throws `SQLiteHistory.Unavailable` naming the file and the
    /// way out when it is in use or cannot be removed, and `error` (SQLite's, which the
    /// caller reports) when the file is not what stops the write.
    func discardIfStale(_ error: DatabaseError) throws {
        guard access(path, F_OK) == 0, access(path, W_OK) != 0 else { throw error }
        // Every connection holds a lock on the file while it has the database open
        // (SQLite's DMS byte): SQLite asks the same question (F_GETLK) before it rebuilds
        // the file. No lock, no user: what it holds is stale. (Closing this descriptor
        // would drop locks this process held on the file through SQLite; it holds none:
        // SQLite could only open the file read-only, and takes no lock then.)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        let asked = descriptor >= 0 && fcntl(descriptor, F_GETLK, &lock) == 0
        if descriptor >= 0 { close(descriptor) }
        guard asked, lock.l_type == Int16(F_UNLCK) else {
            throw SQLiteHistory.Unavailable(
                file: database, reason: "cannot be written: its shared-memory file \(path) is read-only for this user, and another program has the history open",
                hint: "run isobar as the user that owns \(path); or stop the other program (another site's isobar, an sqlite3 shell) and remove the file")
        }
        guard unlink(path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw SQLiteHistory.Unavailable(
                file: database, reason: "cannot be written: its shared-memory file \(path) is read-only for this user and cannot be removed (\(reason))",
                hint: "remove \(path) as the user that owns it: no program has the history open, and SQLite makes it anew (it holds nothing the database needs)")
        }
    }
}
