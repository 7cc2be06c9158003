// The kit's People and Account pages in the flows UI: reached from the user menu, drawn in its frame.
import { afterAll, beforeAll, it } from 'vitest';
import { describeInBrowser } from '@switchboard/web-kit/testing';
import { expectPeopleAndAccount } from '@switchboard/web-kit/testing/people';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';

describeInBrowser('People and Account in the flows UI', () => {
  let h: UiHarness;
  beforeAll(async () => {
    h = await startUiHarness('sqlite');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('an admin opens People and Account from the menu with their email', async () => {
    await expectPeopleAndAccount(await h.signedInPage('/'), { email: h.email, name: 'Ada Admin' });
  });
});
