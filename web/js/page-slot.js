/**
 * Shows one page at a time in `main`. Each page renders into its own root (`makeRoot()`), put in `main` as the page
 * is asked for. A page still loading when the next one is asked for goes on in its root, now out of the document,
 * and what it started (polling, the viewer's render loop) is stopped as soon as it hands back its stop function;
 * its failure is dropped. Rendered straight into `main`, a gallery that answered after a click on "New avatar"
 * was drawn above the upload form, and its stop function replaced the form's.
 * `open(page, ...args)` calls `page(root, ...args)`, which may return (or resolve to) a function that stops it;
 * `onError(e, root)` reports the current page's failure.
 */
export function pageSlot(main, makeRoot, onError) {
  let turn = 0;
  let leave = () => {};
  return async function open(page, ...args) {
    const mine = ++turn;
    leave();
    leave = () => {};
    const root = makeRoot();
    main.replaceChildren(root);
    let stop;
    try {
      stop = (await page(root, ...args)) ?? (() => {});
    } catch (e) {
      if (mine === turn) onError(e, root);
      return;
    }
    if (mine === turn) leave = stop;
    else stop();
  };
}
