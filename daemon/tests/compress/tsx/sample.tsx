// A React list with comments in JSX.
import React, { useMemo, useState } from "react";

type Item = { id: number; label: string };

interface ListProps<T> {
  items: T[];
  render?: (item: T) => React.ReactNode; // optional renderer
}

/** Filters and shows items. */
export function FilterList<T extends Item>({ items, render }: ListProps<T>) {
  const [query, setQuery] = useState("");
  const visible = useMemo(
    () => items.filter((item) => item.label.includes(query)),
    [items, query],
  );
  return (
    <div className="list">
      {/* the search box */}
      <input value={query} onChange={(e) => setQuery(e.target.value)} />
      <p>
        Text with // slashes and /* stars */ is text, not a comment.
      </p>
      <ul>
        {visible.map((item) => (
          <li key={item.id}>{render ? render(item) : item.label}</li>
        ))}
      </ul>
    </div>
  );
}

export const Empty: React.FC = () => {
  // nothing to show
  return <p className="empty">Nothing here.</p>;
};

export default class Counter extends React.Component<{ start: number }, { count: number }> {
  state = { count: this.props.start };

  increment = () => {
    this.setState(({ count }) => ({ count: count + 1 }));
  };

  render() {
    return <button onClick={this.increment}>{this.state.count}</button>;
  }
}
