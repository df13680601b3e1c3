<?php

namespace App\Models;

use Illuminate\Support\Str;

interface HasName
{
    public function name(): string;
}

trait Greets
{
    public function greet() { return "hi"; }
}

#[Entity]
final class User extends Model implements HasName
{
    use Greets;

    const TABLE = 'users';

    public function __construct(private string $first)
    {
    }

    public static function find(int $id): ?self
    {
        $f = function ($x) {
            return $x;
        };
        $g = fn($y) => $y * 2;
        return null;
    }

    public function name(): string
    {
        return $this->first;
    }
}

enum Suit: string
{
    case Hearts = 'H';
    public function color(): string { return 'Red'; }
}

function helper($a)
{
    return $a;
}
