// Contact lists and files in a real Chromium against the real server (spec/03 §2): a list made from
// the lists screen, a contact added by hand, a spreadsheet imported after the confirmation that
// links the example file, each contact's WhatsApp icon as the channel answers, and the count on the
// lists; a file list with two files, one uploaded, then edited and deleted.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, apiAs, DEMO, login, newPage, shot, startE2E, type E2E } from './harness.ts';

vi.setConfig({ testTimeout: 90_000 });

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
}, 120_000);
afterAll(async () => {
  await e2e?.close();
});

describe('contact lists screen', () => {
  it('creates a list, adds a contact, imports a spreadsheet with a refused row, and shows who is on WhatsApp', async () => {
    // The demo's simulator connection answers the checks; one number is marked as not on WhatsApp.
    const superApi = await apiAs(e2e, DEMO.superAdmin, ADMIN_PASSWORD);
    const connection = await e2e.server.deps.db.selectFrom('whatsapps').select('id').where('provider', '=', 'simulator').orderBy('id').executeTakeFirstOrThrow();
    await superApi('POST', '/simulator/numbers', { connectionId: connection.id, number: '5511933330002', exists: false });

    const { context, page } = await newPage(e2e);
    await login(page, DEMO.admin, e2e.demoPassword);
    await page.goto('/contact-lists');
    await page.getByRole('heading', { name: 'Contact lists' }).waitFor();
    // The example file is a row action, one per list: only the demo's list (seeded at first start) has it yet.
    await page.getByRole('row', { name: /Newsletter/ }).waitFor();
    await expect(page.getByRole('link', { name: 'Download the example spreadsheet' }).count()).resolves.toBe(1);
    // A search that finds nothing says so, not that there are no lists.
    await page.getByLabel('Search lists').fill('zzz-nothing');
    await page.getByText('Nothing found.').waitFor();
    expect(await page.getByText('No contact lists yet.').count()).toBe(0);
    await page.getByLabel('Search lists').fill('');
    await page.getByRole('row', { name: /Newsletter/ }).waitFor();

    await page.getByRole('button', { name: 'Add list' }).click();
    const modal = page.getByRole('dialog', { name: 'New contact list' });
    await modal.getByLabel('Name').fill('x');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.getByText('Too short').waitFor();
    await modal.getByLabel('Name').fill('Black Friday');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /Black Friday/ });
    await row.waitFor();
    const example = row.getByRole('link', { name: 'Download the example spreadsheet' });
    expect(await example.getAttribute('href')).toBe('/contact-list-example.xlsx');
    const exampleFile = await fetch(`${e2e.webUrl}/contact-list-example.xlsx`);
    expect([exampleFile.status, (await exampleFile.arrayBuffer()).byteLength > 1000]).toEqual([200, true]);
    await shot(page, 'contact-lists');

    await row.getByRole('button', { name: 'Open list Black Friday' }).click();
    await page.waitForURL(/\/contact-lists\/\d+\/contacts$/);
    await page.getByRole('heading', { name: 'Contact lists: Black Friday' }).waitFor();

    await page.getByRole('button', { name: 'Add contact' }).click();
    const itemModal = page.getByRole('dialog', { name: 'New contact' });
    await itemModal.getByLabel('Name').fill('Ana Lima');
    await itemModal.getByLabel('Number').fill('+55 11 93333-0001');
    await itemModal.getByLabel('Email').fill('ana@example.com');
    await itemModal.getByRole('button', { name: 'Save' }).click();
    await itemModal.waitFor({ state: 'detached' });
    const ana = page.getByRole('row', { name: /Ana Lima/ });
    // Its own column (on phones the number folds under the name instead).
    await ana.getByRole('cell', { name: '5511933330001', exact: true }).waitFor();

    // Import: asked first, with the example file linked.
    await page.getByRole('button', { name: 'Import' }).click();
    const ask = page.getByRole('dialog', { name: 'Import contacts' });
    await ask.getByRole('link', { name: 'Download the example spreadsheet' }).waitFor();
    // Confirmed, the file picker opens at once.
    const picker = page.waitForEvent('filechooser');
    await ask.getByRole('button', { name: 'Import' }).click();
    const csv = 'name;number;email\nBruno Costa;5511933330002;bruno@example.com\nX;5511933330003;\nCarla Dias;5511933330004;\n';
    await (await picker).setFiles({ name: 'leads.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const result = page.getByTestId('list-import-result');
    await result.getByText('2 of 3 rows imported; 0 skipped, 1 rejected.').waitFor();
    await result.getByText('Name is too short (2 to 50 characters)').waitFor();
    await shot(page, 'contact-list-import');
    await page.getByRole('dialog', { name: 'Import contacts' }).getByRole('button', { name: 'Close' }).last().click();

    // The checks run after the commit; the page reads itself again on the poke.
    await page.getByRole('row', { name: /Bruno Costa/ }).getByRole('img', { name: 'Not on WhatsApp' }).waitFor();
    await ana.getByRole('img', { name: 'On WhatsApp' }).waitFor();
    await page.getByRole('row', { name: /Carla Dias/ }).getByRole('img', { name: 'On WhatsApp' }).waitFor();
    await shot(page, 'contact-list-items');

    await page.getByRole('button', { name: 'Delete Carla Dias' }).click();
    await page.getByRole('dialog', { name: 'Delete contact' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('row', { name: /Carla Dias/ }).waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Back to lists' }).click();
    await page.getByRole('row', { name: /Black Friday/ }).getByRole('cell', { name: '2', exact: true }).waitFor();
    await context.close();
  });
});

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

describe('files screen', () => {
  it('adds a file list with a file, edits its options and deletes it', async () => {
    const { context, page } = await newPage(e2e);
    await login(page, DEMO.admin, e2e.demoPassword);
    await page.getByRole('navigation').getByRole('link', { name: 'File lists' }).click();
    await page.getByRole('heading', { name: 'Files' }).waitFor();
    await page.getByRole('button', { name: 'Add file list' }).click();
    const modal = page.getByRole('dialog', { name: 'New file list' });
    await modal.getByLabel('Name', { exact: true }).fill('Price list');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.getByText('Required').waitFor();
    await modal.getByLabel('Message').fill('Here are our prices');
    await modal.getByRole('button', { name: 'Add a file' }).click();
    await modal.getByLabel('File 1 name').fill('Logo');
    await modal.getByLabel('File 1', { exact: true }).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await modal.getByRole('button', { name: 'Add a file' }).click();
    await modal.getByLabel('File 2 name').fill('Brochure');
    // A file the server would refuse is said at once, and Save saves nothing while it is chosen.
    await modal.getByLabel('File 2', { exact: true }).setInputFiles({ name: 'tour.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(21 * 1024 * 1024) });
    await modal.getByRole('alert').getByText('tour.mp4 is too big: files of this type may have at most 20 MB.').waitFor();
    let posted = 0;
    page.on('request', (r) => void (r.method() !== 'GET' && r.url().includes('/files') && posted++));
    await modal.getByRole('button', { name: 'Save' }).click();
    await page.waitForTimeout(300);
    expect(posted).toBe(0);
    await modal.getByLabel('File 2', { exact: true }).setInputFiles([]);
    await shot(page, 'file-list-modal');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /Price list/ });
    await row.getByText('Logo (logo.png), Brochure (no file)').waitFor();
    await shot(page, 'files');

    await row.getByRole('button', { name: 'Edit Price list' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit file list' });
    await edit.getByText('Current file: logo.png').waitFor();
    await edit.getByRole('button', { name: 'Remove file 2' }).click();
    await edit.getByLabel('File 1 name').fill('Our logo');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await row.getByText('Our logo (logo.png)', { exact: true }).waitFor();

    await row.getByRole('button', { name: 'Delete Price list' }).click();
    await page.getByRole('dialog', { name: 'Delete file list' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No file lists yet.').waitFor();
    await context.close();
  });
});
