/**
 * Asks `check` again and again with a growing pause, as every page that follows something on the service
 * must: `first` ms after a change, half as long again each time nothing changed, twice as long after a
 * failed request, at most `max` ms. `check` answers 'changed', 'same' or 'finished' (or throws); polling ends
 * at 'finished' or at stop(). The first call is at once, or after `first` ms with `now` false. `schedule`
 * and `cancel` stand in for setTimeout and clearTimeout in the tests.
 */
export function pollWithBackoff(check, { first = 1000, max = 10_000, now = true, schedule = setTimeout, cancel = clearTimeout } = {}) {
  let delay = first;
  let timer;
  let stopped = false;
  const round = async () => {
    let outcome;
    try {
      outcome = await check();
    } catch {
      outcome = 'failed';
    }
    if (stopped || outcome === 'finished') return;
    delay = outcome === 'changed' ? first : Math.min(max, delay * (outcome === 'failed' ? 2 : 1.5));
    timer = schedule(round, delay);
  };
  if (now) void round();
  else timer = schedule(round, first);
  return () => {
    stopped = true;
    cancel(timer);
  };
}
