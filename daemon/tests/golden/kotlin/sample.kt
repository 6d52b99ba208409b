package com.example.sync

import kotlinx.coroutines.delay
import java.time.Instant

const val MAX_BATCH = 200
private const val TAG = "Sync"
val defaultClock: () -> Instant = { Instant.now() }

typealias ChangeListener = (Change) -> Unit

enum class ChangeType { CREATED, UPDATED, DELETED }

data class Change(val id: String, val type: ChangeType, val at: Instant = Instant.now())

sealed interface SyncResult {
    data class Success(val applied: Int) : SyncResult
    data class Failure(val error: Throwable) : SyncResult
    object Skipped : SyncResult
}

interface RemoteStore {
    suspend fun pull(since: Instant): List<Change>
    suspend fun push(changes: List<Change>)
    val name: String
        get() = javaClass.simpleName
}

abstract class Syncer(protected val remote: RemoteStore) {
    abstract suspend fun sync(): SyncResult
}

class BatchSyncer(
    remote: RemoteStore,
    private val batchSize: Int = MAX_BATCH,
) : Syncer(remote) {
    private val pending = ArrayDeque<Change>()
    var lastSync: Instant? = null
        private set
    internal var listeners = mutableListOf<ChangeListener>()

    constructor(remote: RemoteStore, listener: ChangeListener) : this(remote) {
        listeners += listener
    }

    init {
        require(batchSize > 0) { "batch size must be positive" }
    }

    fun enqueue(change: Change) {
        pending.addLast(change)
        listeners.forEach { it(change) }
    }

    fun enqueue(vararg changes: Change) = changes.forEach(::enqueue)

    override suspend fun sync(): SyncResult {
        if (pending.isEmpty()) return SyncResult.Skipped
        return try {
            val batch = drain()
            remote.push(batch)
            lastSync = Instant.now()
            SyncResult.Success(batch.size)
        } catch (e: Exception) {
            retryLater()
            SyncResult.Failure(e)
        }
    }

    private fun drain(): List<Change> {
        fun take(n: Int) = List(minOf(n, pending.size)) { pending.removeFirst() }
        return take(batchSize)
    }

    private suspend fun retryLater() = delay(BACKOFF_MS)

    companion object {
        const val BACKOFF_MS = 1_000L
        fun forTesting(remote: RemoteStore) = BatchSyncer(remote, batchSize = 1)
    }
}

object SyncRegistry {
    private val syncers = mutableMapOf<String, Syncer>()
    fun register(name: String, syncer: Syncer) { syncers[name] = syncer }
}

fun Change.isRecent(now: Instant = defaultClock()): Boolean = at.isAfter(now.minusSeconds(60))

internal fun log(message: String) = println("$TAG: $message")
