// Copyright 2024 Example Corp.
using System;
using System.Collections.Generic; // lists

namespace Shop.Orders
{
    /// <summary>An order line.</summary>
    public record Line(string Sku, int Quantity);

    public interface IRepository<T> where T : class
    {
        T? Find(string id);
        void Save(T item); // upsert
    }

    public enum Status { Open, Paid, /* legacy */ Cancelled }

    public class OrderService<T> : IRepository<T> where T : class
    {
        private const string Sql = "SELECT * FROM orders -- not a comment";
        private const string Verbatim = @"C:\path\// not a comment   
second line";
        private readonly Dictionary<string, T> _items = new();
        private static readonly Func<int, int> Twice = x =>
        {
            var doubled = x * 2;
            return doubled;
        };

        public int Count
        {
            get { return _items.Count; }
        }

        public string Name { get; set; } = "orders";

        public OrderService()
        {
            // nothing to do yet
            Name = "default";
        }

        /// <summary>Looks an item up.</summary>
        public T? Find(string id)
        {
            int Local(int n) => n + 1;
            return _items.TryGetValue(id, out var item) ? item : null;
        }

        public void Save(T item)
        {
            var key = item.GetHashCode().ToString();
            _items[key] = item;
        }

        public static OrderService<T> operator +(OrderService<T> a, T item)
        {
            a.Save(item);
            return a;
        }

        public override string ToString() => $"{Name} ({Count})";
    }
}
