<?php
/**
 * Copyright 2024 Example Corp.
 */

declare(strict_types=1);

namespace App\Mail;

use InvalidArgumentException; // thrown on bad input

const SIGNATURE = "-- \n// not a comment";

interface Transport
{
    public function send(Message $message): bool; # hash comment
}

final class Message
{
    private const TEMPLATE = <<<EOT
    Dear {name}, /* not a comment */   
    thanks.
    EOT;

    public function __construct(
        public readonly string $to,
        private string $body = '',
    ) {
        if ($to === '') {
            throw new InvalidArgumentException('empty recipient');
        }
    }

    /** @return string the rendered body */
    public function render(array $vars): string
    {
        $replace = function (string $text) use ($vars): string {
            return strtr($text, $vars);
        };
        return $replace(self::TEMPLATE) . $this->body;
    }

    public static function empty(): self { return new self('x'); }
}

abstract class BaseMailer implements Transport
{
    abstract protected function transport(): string;

    public function send(Message $message): bool
    {
        // delegate
        $line = sprintf("%s via %s", $message->to, $this->transport());
        return error_log($line) !== false;
    }
}

$formatter = function (string $s): string {
    return trim($s);
};

function mailer_version(): string
{
    return '1.0';
}
?>
<p>Trailing HTML <!-- html comment --></p>
