import {
  confirmedRegressions,
  GUARD_TOLERANCE,
  guardedNames,
  guardVerdicts,
  RecordedFigures,
  roundRatios,
} from './guard-figures';

describe('the build-cost guard', () => {
  const recorded: RecordedFigures = {
    commit: 'abc1234',
    date: '2026-11-29',
    swapOverBare: 20,
    swapOverConfig: 4,
    productionOverEmbedded: 1.05,
    note: '',
  };

  it('passes ratios up to their recorded figure x 1.25 and fails each one past it', () => {
    const at = (factor: number) => ({
      swapOverBare: 20 * factor,
      swapOverConfig: 4 * factor,
      productionOverEmbedded: 1.05 * factor,
    });
    expect(guardVerdicts(at(GUARD_TOLERANCE), recorded).every((v) => v.ok)).toBe(true);
    for (const name of ['swapOverBare', 'swapOverConfig', 'productionOverEmbedded'] as const) {
      const measured = { ...at(1), [name]: at(1.3)[name] };
      const verdicts = guardVerdicts(measured, recorded);
      expect(verdicts.filter((v) => !v.ok).map((v) => v.name)).toEqual([name]);
      expect(verdicts.find((v) => v.name === name)).toMatchObject({
        recorded: recorded[name],
        limit: recorded[name]! * GUARD_TOLERANCE,
      });
    }
  });

  it('fails a ratio with no recorded figure or no measurement, rather than passing it unseen', () => {
    const { productionOverEmbedded: _dropped, ...older } = recorded;
    const measured = { swapOverBare: 20, swapOverConfig: NaN, productionOverEmbedded: 1 };
    expect(
      guardVerdicts(measured, older)
        .filter((v) => !v.ok)
        .map((v) => v.name),
    ).toEqual(['swapOverConfig', 'productionOverEmbedded']);
  });

  it('pairs rounds: each round of one series over the same round of the other', () => {
    expect(roundRatios([2, 3, 4], [1, 1.5, 0])).toEqual([2, 2]);
    expect(roundRatios([1], [2, 4])).toEqual([0.5]);
  });

  it('fails only a ratio that regressed in the first run and again in the confirming run', () => {
    const second = guardVerdicts(
      { swapOverBare: 30, swapOverConfig: 6, productionOverEmbedded: 1 },
      recorded,
    );
    // swapOverBare and swapOverConfig are over their limits in the second run; only the one the
    // first run also failed counts, and a first-run failure the second run clears is noise.
    expect(confirmedRegressions(['swapOverConfig', 'productionOverEmbedded'], second)).toEqual([
      'swapOverConfig',
    ]);
    expect(confirmedRegressions([], second)).toEqual([]);
  });

  it("reads the first run's failed ratios back from the environment, ignoring anything else", () => {
    expect(guardedNames('swapOverConfig,bogus,productionOverEmbedded')).toEqual([
      'swapOverConfig',
      'productionOverEmbedded',
    ]);
    expect(guardedNames('')).toEqual([]);
  });
});
