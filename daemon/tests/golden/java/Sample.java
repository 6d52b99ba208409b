package com.example.billing;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Builds invoices from line items and applies tax rules. */
public class Sample {
    public static final int MAX_LINES = 500;
    private static final String CURRENCY = "EUR";
    static int created;

    private final List<Line> lines = new ArrayList<>();
    protected String customer, reference;

    public Sample(String customer) {
        this(customer, null);
    }

    public Sample(String customer, String reference) {
        this.customer = customer;
        this.reference = reference;
        created++;
    }

    public Sample add(String description, BigDecimal amount) {
        return add(description, amount, 1);
    }

    public Sample add(String description, BigDecimal amount, int quantity) {
        if (lines.size() >= MAX_LINES) {
            throw new IllegalStateException("too many lines");
        }
        lines.add(new Line(description, amount, quantity));
        return this;
    }

    public BigDecimal total(TaxRule rule) {
        BigDecimal sum = BigDecimal.ZERO;
        for (Line line : lines) {
            sum = sum.add(line.amount().multiply(BigDecimal.valueOf(line.quantity())));
        }
        return rule.apply(sum);
    }

    Optional<Line> largest() {
        return lines.stream().max((a, b) -> a.amount().compareTo(b.amount()));
    }

    private void audit(String event) {
        Runnable task = new Runnable() {
            @Override
            public void run() {
                System.out.println(event);
            }
        };
        task.run();
    }

    public record Line(String description, BigDecimal amount, int quantity) {
        public Line {
            if (quantity <= 0) throw new IllegalArgumentException("quantity");
        }

        public BigDecimal subtotal() {
            return amount.multiply(BigDecimal.valueOf(quantity));
        }
    }

    public enum Status {
        DRAFT("draft"),
        SENT("sent"),
        PAID("paid");

        private final String label;

        Status(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    private static class Counter {
        int value;
        void increment() { value++; }
    }
}

interface TaxRule {
    BigDecimal RATE_CAP = new BigDecimal("0.5");

    BigDecimal apply(BigDecimal amount);

    default String describe() {
        return getClass().getSimpleName();
    }

    private void check() {}
}

@interface Audited {
    String value() default "";
}
