/*
 * Copyright 2024 Example Corp.
 * Licensed under the Apache License, Version 2.0.
 */
package com.example.cache;

import java.util.HashMap; // map
import java.util.Map;
import java.util.function.Function;

/**
 * A tiny loading cache.
 *
 * @param <K> key type
 * @param <V> value type
 */
public class LoadingCache<K extends Comparable<K>, V> {
  public static final String NAME = "cache // not a comment";
  private static final String TEXT = """
      /* inside a text block */   
      second line
      """;
  private static int instances;

  static {
    instances = 0;
    System.out.println("loaded");
  }

  private final Map<K, V> values = new HashMap<>();
  private final Function<K, V> loader;
  private final Runnable onEvict = () -> {
    instances--;
    System.out.println("evicted");
  };

  /** Creates a cache backed by {@code loader}. */
  public LoadingCache(Function<K, V> loader) {
    this.loader = loader;
    instances++;
  }

  @Override
  public String toString() {
    return NAME + values.size();
  }

  @SuppressWarnings("unchecked")
  public <R extends V> R get(K key) {
    // compute on miss
    return (R) values.computeIfAbsent(key, k -> {
      V loaded = loader.apply(k);
      return loaded;
    });
  }

  public int size() { return values.size(); }

  public abstract static class Listener<K> {
    public abstract void onLoad(K key);

    protected void log(String message) {
      System.out.println(message);
    }
  }

  public interface Stats {
    long hits();

    default double hitRate(long total) {
      return total == 0 ? 0.0 : (double) hits() / total;
    }
  }

  public record Entry<K, V>(K key, V value) {
    public Entry {
      java.util.Objects.requireNonNull(key);
    }
  }

  enum Mode { LAZY, EAGER }
}
