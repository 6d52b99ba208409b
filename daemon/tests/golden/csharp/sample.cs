using System;
using System.Collections.Generic;
using System.Threading.Tasks;

namespace Shop.Inventory;

public delegate void StockChanged(string sku, int quantity);

public enum Warehouse
{
    North,
    South = 2,
}

public interface IStockStore
{
    int this[string sku] { get; }
    Task<int> CountAsync(string sku);
    event StockChanged Changed;
}

public record struct Reservation(string Sku, int Quantity);

public record Adjustment(string Sku, int Delta, string Reason);

internal struct Slot
{
    public int Row;
    public int Column;

    public Slot(int row, int column)
    {
        Row = row;
        Column = column;
    }
}

public sealed class StockLedger : IStockStore
{
    public const int MaxQuantity = 10_000;
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(5);

    private readonly Dictionary<string, int> _counts = new();
    public event StockChanged Changed;

    public string Name { get; }
    public int Total { get; private set; }
    protected Warehouse Home { get; init; } = Warehouse.North;

    public StockLedger(string name)
    {
        Name = name;
    }

    ~StockLedger()
    {
        _counts.Clear();
    }

    public int this[string sku] => _counts.TryGetValue(sku, out var count) ? count : 0;

    public Task<int> CountAsync(string sku) => Task.FromResult(this[sku]);

    public void Apply(Adjustment adjustment)
    {
        Apply(adjustment.Sku, adjustment.Delta);
    }

    public void Apply(string sku, int delta)
    {
        int Clamp(int value) => Math.Clamp(value, 0, MaxQuantity);
        _counts[sku] = Clamp(this[sku] + delta);
        Total += delta;
        Changed?.Invoke(sku, _counts[sku]);
    }

    private bool Validate(string sku) => !string.IsNullOrEmpty(sku);

    public static StockLedger operator +(StockLedger ledger, Adjustment adjustment)
    {
        ledger.Apply(adjustment);
        return ledger;
    }

    internal sealed class Snapshot
    {
        public IReadOnlyDictionary<string, int> Counts { get; set; }
    }
}

public static class LedgerReport
{
    public static string Render(this StockLedger ledger) => $"{ledger.Name}: {ledger.Total}";
}
