"""The statistics of a simulation: intervals and tests with known answers.

Pure functions over numbers (no engine): the Wilson score interval for a
proportion, the two-proportion z-test, quartiles and histograms, and Welch's
interval for a difference of two means (with the Student t quantile computed
here, from the regularized incomplete beta function, so that no statistics
package is needed).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

Z95 = NormalDist().inv_cdf(0.975)  # 1.959963...


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1)
    when there are no trials."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def two_proportion_test(x1: int, n1: int, x2: int, n2: int) -> tuple[float, float]:
    """The pooled two-proportion z-test of x1/n1 against x2/n2: (z, two-sided
    p-value); (0, 1) when the pooled proportion is 0 or 1."""
    pooled = (x1 + x2) / (n1 + n2)
    spread = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if spread == 0:
        return (0.0, 1.0)
    z = (x1 / n1 - x2 / n2) / math.sqrt(spread)
    return (z, 2 * (1 - NormalDist().cdf(abs(z))))


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def variance(values: Sequence[float]) -> float:
    """The sample variance (n - 1 in the denominator)."""
    if len(values) < 2:
        return 0.0
    centre = mean(values)
    return sum((v - centre) ** 2 for v in values) / (len(values) - 1)


def quantile(values: Sequence[float], q: float) -> float:
    """The q-quantile by linear interpolation between order statistics (the
    default of numpy and of `statistics.quantiles(method="inclusive")`)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def describe(values: Sequence[float]) -> dict[str, float]:
    """Mean, quartiles and range, rounded for a report."""
    return {
        "mean": round(mean(values), 4),
        "min": min(values, default=0),
        "q1": round(quantile(values, 0.25), 4),
        "median": round(quantile(values, 0.5), 4),
        "q3": round(quantile(values, 0.75), 4),
        "max": max(values, default=0),
    }


def histogram(values: Sequence[int], bins: int = 20) -> list[list[int]]:
    """Counts of whole numbers in `bins` equal-width bins: [low, high, count]
    per bin, low included and high excluded (the last bin includes its high)."""
    if not values:
        return []
    low, high = min(values), max(values)
    width = max(1, math.ceil((high - low + 1) / bins))
    counts: dict[int, int] = {}
    for value in values:
        counts[(value - low) // width] = counts.get((value - low) // width, 0) + 1
    last = (high - low) // width
    return [[low + b * width, low + (b + 1) * width, counts.get(b, 0)] for b in range(last + 1)]


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 300):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return result


def regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularized incomplete beta function."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def student_t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with df degrees of freedom."""
    tail = 0.5 * regularized_beta(df / 2, 0.5, df / (df + t * t))
    return 1 - tail if t >= 0 else tail


def student_t_quantile(p: float, df: float) -> float:
    """The t with P(T <= t) = p (bisection to 1e-10)."""
    low, high = -1e3, 1e3
    for _ in range(200):
        middle = (low + high) / 2
        if student_t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
        if high - low < 1e-10:
            break
    return (low + high) / 2


def welch_interval(
    a: Sequence[float], b: Sequence[float], confidence: float = 0.95
) -> tuple[float, float, float]:
    """Welch's interval for mean(a) - mean(b): (difference, low, high)."""
    difference = mean(a) - mean(b)
    va, vb = variance(a) / len(a), variance(b) / len(b)
    spread = va + vb
    if spread == 0:
        return (difference, difference, difference)
    df = spread**2 / (
        (va**2 / (len(a) - 1) if len(a) > 1 else 0) + (vb**2 / (len(b) - 1) if len(b) > 1 else 0)
    )
    half = student_t_quantile(1 - (1 - confidence) / 2, df) * math.sqrt(spread)
    return (difference, difference - half, difference + half)
