import type { ParserGroup } from '../../types';
import { lscpuParser } from './lscpu';
import { procCpuinfoParser } from './procCpuinfo';
import { freeParser } from './free';
import { procMeminfoParser } from './procMeminfo';
import { fdiskParser } from './fdisk';
import { tune2fsParser } from './tune2fs';
import { unameParser } from './uname';
import { osReleaseParser } from './osRelease';
import { lsblkParser } from './lsblk';
import { uptimeParser } from './uptime';
import { sfdiskParser } from './sfdisk';
import { mke2fsParser } from './mke2fs';

export const group: ParserGroup = {
  parsers: [lscpuParser, procCpuinfoParser, freeParser, procMeminfoParser, fdiskParser, tune2fsParser, unameParser, osReleaseParser, lsblkParser, uptimeParser, sfdiskParser, mke2fsParser],
  rules: [],
};
