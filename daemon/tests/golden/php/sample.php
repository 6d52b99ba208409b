<?php

declare(strict_types=1);

namespace App\Billing;

use DateTimeImmutable;
use InvalidArgumentException;

const DEFAULT_CURRENCY = 'EUR';

enum InvoiceStatus: string
{
    case Draft = 'draft';
    case Paid = 'paid';

    public function label(): string
    {
        return ucfirst($this->value);
    }
}

interface PaymentGateway
{
    public const TIMEOUT = 30;

    public function charge(Money $amount, string $token): Receipt;
}

trait LogsActivity
{
    protected array $log = [];

    protected function record(string $event): void
    {
        $this->log[] = [$event, new DateTimeImmutable()];
    }
}

abstract class Document
{
    abstract public function number(): string;
}

final class Invoice extends Document implements \JsonSerializable
{
    use LogsActivity;

    private const PREFIX = 'INV-';
    public static int $issued = 0;

    private array $lines = [];
    public ?DateTimeImmutable $paidAt = null;

    public function __construct(
        private readonly string $customer,
        public InvoiceStatus $status = InvoiceStatus::Draft,
    ) {
        self::$issued++;
    }

    public function number(): string
    {
        return self::PREFIX . str_pad((string) self::$issued, 6, '0', STR_PAD_LEFT);
    }

    public function addLine(string $description, int $cents): static
    {
        if ($cents < 0) {
            throw new InvalidArgumentException('negative amount');
        }
        $this->lines[] = compact('description', 'cents');
        $this->record('line added');
        return $this;
    }

    public function total(): int
    {
        $sum = static fn (array $line): int => $line['cents'];
        return array_sum(array_map($sum, $this->lines));
    }

    public static function fromArray(array $data): self
    {
        return new self($data['customer']);
    }

    private function markPaid(): void
    {
        $this->status = InvoiceStatus::Paid;
    }

    public function jsonSerialize(): mixed
    {
        return ['number' => $this->number(), 'total' => $this->total()];
    }
}

function format_money(int $cents, string $currency = DEFAULT_CURRENCY): string
{
    return sprintf('%s %.2f', $currency, $cents / 100);
}
