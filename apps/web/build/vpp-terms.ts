/**
 * Writes the terms PDFs of the programmes the portal ships (contracts' PROGRAMME_TERMS) into
 * public/assets/vpp/ with jsPDF, the web's PDF library. Run after changing the terms:
 * `npx tsx apps/web/build/vpp-terms.ts`. The files are committed; the output is the same for
 * the same text (fixed creation date and file id).
 */
import fs from 'node:fs';
import path from 'node:path';
import { demandResponseApi } from '@sunfleet/contracts';
import { jsPDF } from 'jspdf';

const out = path.resolve(import.meta.dirname, '../public/assets/vpp');

const sections = (title: string): [string, string][] => [
  [
    'The programme',
    `${title} is a demand-response programme of the utility operating the portal's OpenADR 3 server. By enrolling, you allow the portal to operate the batteries you enrol, as one virtual power plant with other participants, during the programme's events.`,
  ],
  [
    'Eligible devices',
    'Storage inverters on plants you own or manage in the portal. You state each device’s charge, discharge and storage capacity; the portal never asks a device for more than those, nor for more than its own limits allow.',
  ],
  [
    'Events',
    'The utility announces events with a start, an end and the power asked. During an event the portal changes the discharge or charge limits of your enrolled batteries and restores your previous settings when it ends. A battery at or below 20 % state of charge is not discharged.',
  ],
  [
    'Opting out',
    'You may opt out of any event that has not ended, from the event’s page. Your batteries get their previous settings back at once. Opting out may reduce what the programme pays you.',
  ],
  [
    'Data',
    'The portal sends the utility, for each event, the power your batteries delivered per interval. Your name, e-mail, addresses and account numbers are given to the utility to settle the programme and for no other purpose.',
  ],
  [
    'Ending',
    'You may unenrol at any time; your devices then take part in no further event. The utility may end the programme; your enrolment then ends with it.',
  ],
];

fs.mkdirSync(out, { recursive: true });
for (const p of demandResponseApi.PROGRAMME_TERMS) {
  const doc = new jsPDF({ unit: 'pt', format: 'a4' });
  doc.setCreationDate(new Date(Date.UTC(2026, 0, 1)));
  doc.setFileId('00000000000000000000000000000000');
  doc.setProperties({ title: `${p.title}: terms and conditions`, subject: p.name, creator: 'Sunfleet' });
  let y = 72;
  doc.setFont('helvetica', 'bold').setFontSize(18).text(`${p.title}`, 56, y);
  y += 22;
  doc.setFont('helvetica', 'normal').setFontSize(11).text(`Terms and conditions of programme ${p.name}`, 56, y);
  y += 30;
  for (const [heading, body] of sections(p.title)) {
    doc.setFont('helvetica', 'bold').setFontSize(12).text(heading, 56, y);
    y += 16;
    const lines = doc.setFont('helvetica', 'normal').setFontSize(10.5).splitTextToSize(body, 483) as string[];
    doc.text(lines, 56, y);
    y += lines.length * 14 + 14;
  }
  fs.writeFileSync(path.join(out, p.file), Buffer.from(doc.output('arraybuffer')));
  console.log(`wrote ${path.join(out, p.file)}`);
}
