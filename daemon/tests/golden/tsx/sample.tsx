// Paginated table of orders with a status filter.
import React, { useCallback, useMemo, useState } from "react";

export const PAGE_SIZE = 25;

export type OrderStatus = "open" | "shipped" | "cancelled";

export interface Order {
  id: string;
  customer: string;
  total: number;
  status: OrderStatus;
}

interface OrderTableProps {
  orders: Order[];
  onSelect?: (order: Order) => void;
}

enum SortKey {
  Customer = "customer",
  Total = "total",
}

function formatMoney(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

export function StatusBadge({ status }: { status: OrderStatus }) {
  const color = status === "cancelled" ? "red" : "green";
  return <span className={`badge badge-${color}`}>{status}</span>;
}

export const OrderTable: React.FC<OrderTableProps> = ({ orders, onSelect }) => {
  const [page, setPage] = useState(0);
  const [sortKey, setSortKey] = useState<SortKey>(SortKey.Customer);

  const sorted = useMemo(
    () => [...orders].sort((a, b) => String(a[sortKey]).localeCompare(String(b[sortKey]))),
    [orders, sortKey],
  );

  const handleClick = useCallback((order: Order) => onSelect?.(order), [onSelect]);

  return (
    <table>
      <thead>
        <tr>
          <th onClick={() => setSortKey(SortKey.Customer)}>Customer</th>
          <th onClick={() => setSortKey(SortKey.Total)}>Total</th>
        </tr>
      </thead>
      <tbody>
        {sorted.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE).map((order) => (
          <tr key={order.id} onClick={() => handleClick(order)}>
            <td>{order.customer}</td>
            <td>{formatMoney(order.total)}</td>
            <td><StatusBadge status={order.status} /></td>
          </tr>
        ))}
      </tbody>
      <button onClick={() => setPage(page + 1)}>Next</button>
    </table>
  );
};

export default class OrderPage extends React.Component<{ title: string }, { loading: boolean }> {
  state = { loading: true };
  private timer?: number;

  componentDidMount(): void {
    this.timer = window.setTimeout(() => this.setState({ loading: false }), 100);
  }

  componentWillUnmount(): void {
    window.clearTimeout(this.timer);
  }

  handleRefresh = async (): Promise<void> => {
    this.setState({ loading: true });
  };

  render() {
    return this.state.loading ? <p>Loading…</p> : <OrderTable orders={[]} />;
  }
}
