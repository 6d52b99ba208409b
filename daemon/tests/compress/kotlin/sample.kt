/*
 * Copyright 2024 Example Corp.
 */
package com.example.sync

import kotlinx.coroutines.delay // suspend sleep
import java.time.Instant

const val URL = "https://example.com/// not a comment"
val RAW = """
    /* inside a raw string */   
    second line
"""

/** A change to apply. */
data class Change<T : Comparable<T>>(val id: T, val at: Instant = Instant.now())

interface Remote<T> {
    suspend fun pull(since: Instant): List<Change<T>>
    val name: String
        get() = javaClass.simpleName
}

class Syncer<T : Comparable<T>>(private val remote: Remote<T>) {
    private val pending = ArrayDeque<Change<T>>() // queued changes
    var lastSync: Instant? = null
        get() {
            println("read lastSync")
            return field
        }

    init {
        // start empty
        pending.clear()
    }

    constructor(remote: Remote<T>, first: Change<T>) : this(remote) {
        pending.add(first)
        println("seeded")
    }

    suspend fun sync(): Int {
        fun log(message: String) {
            println(message)
        }
        val changes = remote.pull(lastSync ?: Instant.EPOCH)
        log("pulled ${changes.size}")
        delay(10)
        return changes.size
    }

    fun size() = pending.size

    companion object {
        fun <T : Comparable<T>> empty(remote: Remote<T>) = Syncer(remote)
    }
}

fun <T> List<T>.second(): T {
    require(size >= 2) { "too short" }
    return this[1]
}
